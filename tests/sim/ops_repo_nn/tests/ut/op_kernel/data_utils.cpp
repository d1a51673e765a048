#include "data_utils.h"

#include <cstdio>

bool ReadFile(const std::string& filePath, size_t& fileSize, void* buffer, size_t bufferSize)
{
    FILE* f = std::fopen(filePath.c_str(), "rb");
    if (f == nullptr) {
        std::printf("cannot open %s\n", filePath.c_str());
        return false;
    }
    fileSize = std::fread(buffer, 1, bufferSize, f);
    std::fclose(f);
    return true;
}

bool WriteFile(const std::string& filePath, const void* buffer, size_t size)
{
    FILE* f = std::fopen(filePath.c_str(), "wb");
    if (f == nullptr) {
        std::printf("cannot create %s\n", filePath.c_str());
        return false;
    }
    bool ok = std::fwrite(buffer, 1, size, f) == size;
    std::fclose(f);
    return ok;
}
