"""Chapter 13's token-strip picture (tutorial/pictures/strip.py): its legend and counts."""

TEXTS = {
    "counts": {"en": "{tokens} tokens, {trained} trained", "zh": "{tokens} 个 token，其中 {trained} 个参与训练"},
    "prompt": {"en": "first prompt", "zh": "第一个 prompt"},
    "context": {"en": "context (loss_mask 0)", "zh": "上下文（loss_mask 0）"},
    "trained": {"en": "trained (loss_mask 1)", "zh": "参与训练（loss_mask 1）"},
    "dropped": {"en": "written by the model, gone from the sample", "zh": "模型写过、样本里已不存在"},
    "mark": {"en": "where the lists part", "zh": "两串 token 分开的位置"},
    # between two samples' counts in one label (pictures/strip.py joins them): ；in Chinese (L14)
    "separator": {"en": "; ", "zh": "；"},
}
