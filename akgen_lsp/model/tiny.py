"""Tiny, randomly initialised models for tests and benchmarks: a llama-architecture GGUF and a HF directory.

Both share one byte-level BPE vocabulary (the 256 GPT-2 byte symbols, a handful of merges and the Qwen special tokens),
so they load in milliseconds and exercise the real tokenizer, sampler and streaming paths of each backend. Their output
is gibberish: test mechanics (tokens streamed, stops, cancellation, latency), never text.

Nothing here downloads anything.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

# Merges present in the vocabulary (GPT-2 byte symbols: "Ġ" is a space, "Ċ" a newline).
MERGES: tuple[tuple[str, str], ...] = (
    ("Ġ", "Ġ"),
    ("ĠĠ", "ĠĠ"),
    ("i", "n"),
    ("e", "r"),
    ("Ġ", "t"),
    ("o", "r"),
    ("a", "l"),
    (";", "Ċ"),
)
SPECIAL_TOKENS: tuple[str, ...] = (
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|fim_prefix|>",
    "<|fim_middle|>",
    "<|fim_suffix|>",
    "<|fim_pad|>",
    "<think>",
    "</think>",
)
EOS_TOKEN = "<|endoftext|>"


def _byte_symbols() -> list[str]:
    """GPT-2's reversible byte -> printable character table, in byte order."""
    printable = (
        list(range(ord("!"), ord("~") + 1))
        + list(range(ord("¡"), ord("¬") + 1))
        + list(range(ord("®"), ord("ÿ") + 1))
    )
    extra = 0
    table: dict[int, str] = {}
    for b in range(256):
        if b in printable:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + extra)
            extra += 1
    return [table[b] for b in range(256)]


def vocabulary() -> tuple[list[str], list[str], list[str]]:
    """(tokens, merges as "a b" strings, special tokens); token ids are list positions."""
    tokens = _byte_symbols()
    merges = []
    for a, b in MERGES:
        tokens.append(a + b)
        merges.append(f"{a} {b}")
    tokens.extend(SPECIAL_TOKENS)
    return tokens, merges, list(SPECIAL_TOKENS)


def silent_token_ids(n_vocab: int, n_special: int) -> list[int]:
    """Tokens whose output row is zero, so their logit (0) never beats the random others: special tokens (generation
    runs until a stop or the budget) and bytes outside printable ASCII (the output is valid UTF-8, as a real model's
    is, so servers never hold back a half character)."""
    bytes_out = [b for b in range(256) if not (32 <= b < 127 or b in (9, 10))]
    return bytes_out + list(range(n_vocab - n_special, n_vocab))


def write_tiny_gguf(
    path: str | Path,
    *,
    n_embd: int = 64,
    n_layer: int = 2,
    n_head: int = 4,
    n_ff: int = 128,
    n_ctx: int = 2048,
    seed: int = 0,
) -> Path:
    """Write a llama-architecture GGUF with random float32 weights; returns the path."""
    import gguf

    path = Path(path)
    tokens, merges, specials = vocabulary()
    n_vocab = len(tokens)
    rng = np.random.default_rng(seed)
    w = gguf.GGUFWriter(str(path), "llama")
    w.add_name("akgen-tiny-llama")
    w.add_context_length(n_ctx)
    w.add_embedding_length(n_embd)
    w.add_block_count(n_layer)
    w.add_feed_forward_length(n_ff)
    w.add_head_count(n_head)
    w.add_head_count_kv(n_head)
    w.add_rope_dimension_count(n_embd // n_head)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("default")
    w.add_token_list(tokens)
    types = [gguf.TokenType.NORMAL] * (n_vocab - len(specials)) + [gguf.TokenType.CONTROL] * len(specials)
    w.add_token_types(types)
    w.add_token_merges(merges)
    eos = tokens.index(EOS_TOKEN)
    w.add_bos_token_id(eos)
    w.add_eos_token_id(eos)
    w.add_add_bos_token(False)

    def rand(*shape: int, scale: float) -> np.ndarray:
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    w.add_tensor("token_embd.weight", rand(n_vocab, n_embd, scale=1.0))
    w.add_tensor("output_norm.weight", np.ones(n_embd, dtype=np.float32))
    out = rand(n_vocab, n_embd, scale=1.0)
    out[silent_token_ids(n_vocab, len(specials))] = 0.0
    w.add_tensor("output.weight", out)
    s = 1.0 / np.sqrt(n_embd)
    for i in range(n_layer):
        w.add_tensor(f"blk.{i}.attn_norm.weight", np.ones(n_embd, dtype=np.float32))
        w.add_tensor(f"blk.{i}.attn_q.weight", rand(n_embd, n_embd, scale=s))
        w.add_tensor(f"blk.{i}.attn_k.weight", rand(n_embd, n_embd, scale=s))
        w.add_tensor(f"blk.{i}.attn_v.weight", rand(n_embd, n_embd, scale=s))
        w.add_tensor(f"blk.{i}.attn_output.weight", rand(n_embd, n_embd, scale=s))
        w.add_tensor(f"blk.{i}.ffn_norm.weight", np.ones(n_embd, dtype=np.float32))
        w.add_tensor(f"blk.{i}.ffn_gate.weight", rand(n_ff, n_embd, scale=s))
        w.add_tensor(f"blk.{i}.ffn_up.weight", rand(n_ff, n_embd, scale=s))
        w.add_tensor(f"blk.{i}.ffn_down.weight", rand(n_embd, n_ff, scale=1.0 / np.sqrt(n_ff)))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


def write_tiny_hf(
    folder: str | Path,
    *,
    hidden: int = 32,
    layers: int = 2,
    heads: int = 4,
    seed: int = 0,
    qwen3: bool = False,
) -> Path:
    """Write a randomly initialised LlamaForCausalLM (`qwen3`: a Qwen3ForCausalLM, KernelGen-LM's architecture) and a
    byte-level BPE tokenizer with `save_pretrained`.

    Needs torch and transformers (the `hf` extra); builds the tokenizer locally with `tokenizers`.
    """
    from akgen_lsp.model.backends.transformers import hidden_npu_stubs

    with hidden_npu_stubs():
        return _write_tiny_hf(Path(folder), hidden, layers, heads, seed, qwen3)


def _write_tiny_hf(
    folder: Path, hidden: int, layers: int, heads: int, seed: int, qwen3: bool = False
) -> Path:
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import (
        LlamaConfig,
        LlamaForCausalLM,
        PreTrainedTokenizerFast,
        Qwen3Config,
        Qwen3ForCausalLM,
    )

    folder.mkdir(parents=True, exist_ok=True)
    tokens, merges, specials = vocabulary()
    vocab = {t: i for i, t in enumerate(tokens)}
    bpe = models.BPE(vocab=vocab, merges=[tuple(m.split(" ")) for m in merges])
    tok = Tokenizer(bpe)
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens(specials)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token=EOS_TOKEN, pad_token=EOS_TOKEN)
    fast.save_pretrained(folder)
    torch.manual_seed(seed)
    eos = vocab[EOS_TOKEN]
    shape = dict(
        vocab_size=len(tokens),
        hidden_size=hidden,
        intermediate_size=hidden * 2,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        num_key_value_heads=heads,
        max_position_embeddings=2048,
        bos_token_id=eos,
        eos_token_id=eos,
        pad_token_id=eos,
        tie_word_embeddings=False,
    )
    if qwen3:
        model = Qwen3ForCausalLM(Qwen3Config(**shape, head_dim=hidden // heads))
    else:
        model = LlamaForCausalLM(LlamaConfig(**shape))
    with torch.no_grad():
        model.lm_head.weight.normal_(0.0, 1.0)
        model.lm_head.weight[silent_token_ids(len(tokens), len(specials))] = 0.0
    model.save_pretrained(folder)
    (folder / "akgen-tiny.json").write_text(json.dumps({"seed": seed}), encoding="utf-8")
    return folder


def literal_grammar(text: str) -> str:
    """A GBNF grammar whose only sentence is `text`: a random tiny model constrained by it answers exactly `text`
    through real inference (tests and demos of what a real model would say)."""
    return "root ::= " + json.dumps(text)
