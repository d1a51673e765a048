// ReadFile / WriteFile of the repository's kernel unit tests (binary files, whole).
#pragma once
#include <cstddef>
#include <string>

bool ReadFile(const std::string& filePath, size_t& fileSize, void* buffer, size_t bufferSize);
bool WriteFile(const std::string& filePath, const void* buffer, size_t size);
