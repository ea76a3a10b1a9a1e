"""A tiny causal language model made on the spot (random weights, a byte-level BPE tokenizer
with a chat template): what the TRL tests train and evaluate, since the suite downloads nothing."""

from __future__ import annotations

from pathlib import Path

#: Answers the small vocabulary is learnt from (`answers_only=True`).
ANSWERS = [f"#### ({x},{y}), ({x + 1},{y}), ({x},{y + 1})" for x in range(7) for y in range(7)]


def tiny_model(folder: Path, answers_only: bool = False) -> str:
    """A 1-layer Qwen2 model and a byte-level BPE tokenizer with a chat template, saved.

    `answers_only`: the vocabulary holds only the characters of answers (`#`, brackets, digits,
    comma, space) and their merges, every other character of a prompt being `<unk>`, so that even
    random weights write `#### (x,y), ...` often: answers the rewards give something for."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

    bpe = Tokenizer(models.BPE(unk_token="<unk>"))
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=not answers_only)
    bpe.decoder = decoders.ByteLevel()
    learner = trainers.BpeTrainer(
        vocab_size=160 if answers_only else 300,
        special_tokens=["<unk>", "<pad>", "<eos>"],
        initial_alphabet=[] if answers_only else pre_tokenizers.ByteLevel.alphabet(),
    )
    bpe.train_from_iterator(ANSWERS if answers_only else ["#### (0,0), (1,0), (2,0)"], learner)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=bpe, unk_token="<unk>", pad_token="<pad>", eos_token="<eos>"
    )
    tokenizer.chat_template = (
        "{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}"
        "{% if add_generation_prompt %}assistant: {% endif %}"
    )
    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    Qwen2ForCausalLM(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return str(folder)
