"""Chapter 13's build-it checks (tutorial/notebook/build_it/trajectory.py): verdicts and rules."""

TEXTS = {
    "trap_empty": {"en": "an empty strip", "zh": "空的 strip"},
    "trap_extends": {"en": "the prompt repeats the held ids and adds more", "zh": "prompt 重复已持有的 token 并继续往后写"},
    "trap_inside": {"en": "the prompt parts inside the last answer", "zh": "prompt 在上一个回答之内分开"},
    "trap_before": {"en": "the prompt parts before the last answer", "zh": "prompt 在上一个回答之前分开"},
    "trap_long": {"en": "parts inside the answer, but the new answer is as long as the threshold", "zh": "在回答之内分开，但新回答与阈值一样长"},
    "trap_shorter": {"en": "the prompt is shorter than the held ids and part of them", "zh": "prompt 比已持有的 token 短，是其中的一段"},
    "trap_first": {"en": "the first turn, on an empty strip", "zh": "第一轮，追加到空的 strip"},
    "trap_clean": {"en": "a clean turn", "zh": "clean 的一轮"},
    "trap_realign": {"en": "a realign: the last answer is overwritten", "zh": "realign，上一个回答被覆盖"},
    "turn_of": {"en": "{session}, turn {number}", "zh": "{session} 第 {number} 轮"},
    # the situations chapter 05's check_stage also meets are said in its words (build_it/texts.py)
    "stub": {"en": "{stage} is not written yet: replace the ... with your code and run the cell",
             "zh": "{stage} 还没有写：把 ... 换成你的代码，再运行这个单元格。"},
    "not_function": {"en": "not yet: {stage} should be a function, got {kind}",
                     "zh": "还不对：{stage} 应该是函数，这里拿到的是 {kind} 类型的值。"},
    "right": {"en": "right: {stage} agrees with tutorial.trajectory on all {count} inputs (the traps, then every "
                    "turn of the nine recorded sessions)",
              "zh": "正确：{stage} 在全部 {count} 个输入上都与 tutorial.trajectory 一致（先是陷阱，然后是九个录制会话的每一轮）。"},
    # a ✗ opens as chapter 05's do ("not yet: " / "还不对："), the rule on a line of its own
    "raised": {"en": "not yet: on {case}, your function raised {error}{line}.\n  The rule: {rule}",
               "zh": "还不对：输入为「{case}」时，你的函数抛出了 {error}{line}。\n  规则：{rule}"},
    # a TypeError: how the check calls the function, instead of a rule the error may have nothing to do with
    "raised_call": {"en": "not yet: on {case}, your function raised {error}{line}.\n  {stage} is called as {call}{arity}",
                    "zh": "还不对：输入为「{case}」时，你的函数抛出了 {error}{line}。\n  检查时这样调用 {stage}：{call}{arity}"},
    "arity": {"en": ": check how many arguments it takes and in what order.",
              "zh": "，请核对它接受几个参数、参数的顺序是否一致。"},
    "arity_none": {"en": ".", "zh": "。"},
    "returned_none": {"en": "not yet: on {case}, your function returned None. Is a return missing? It should return "
                            "the new value.\n  The rule: {rule}",
                      "zh": "还不对：输入为「{case}」时，你的函数返回了 None，是不是漏写了 return？函数应当返回新的结果。\n  规则：{rule}"},
    "stopped": {"en": "not yet: on {case}, {problem}.", "zh": "还不对：输入为「{case}」时，{problem}。"},
    "line": {"en": " ({where})", "zh": "（{where}）"},
    "differs": {"en": "not yet: on {case}, {where}.\n  The rule: {rule}", "zh": "还不对：输入为「{case}」时，{where}。\n  规则：{rule}"},
    "missing_key": {"en": "the strip has no {field!r}", "zh": "返回的 strip 里没有 {field!r}"},
    "list_at": {"en": "{field}[{at}] should be {expected!r}, got {got!r}", "zh": "{field}[{at}] 应为 {expected!r}，实际为 {got!r}"},
    "list_length": {"en": "{field} should have {expected} items, got {got}", "zh": "{field} 应有 {expected} 项，实际有 {got} 项"},
    "value": {"en": "{field} should be {expected!r}, got {got!r}", "zh": "{field} 应为 {expected!r}，实际为 {got!r}"},
    "whole": {"en": "expected {expected}, got {got}", "zh": "返回值应为 {expected}，实际为 {got}"},
    "rule_classify_clean": {
        "en": "when the prompt starts with every held id, the turn is clean (an empty strip included).",
        "zh": "prompt 以全部已持有的 token 开头时，这一轮是 clean（空的 strip 也算）。"},
    "rule_classify_realign": {
        "en": "when the prompt parts from the held ids at or after response_start and the new answer is shorter "
              "than fork_threshold, the turn is realign.",
        "zh": "prompt 在 response_start 或其后与已持有的 token 分开，并且新回答短于 fork_threshold 时，这一轮是 realign。"},
    "rule_classify_fork": {
        "en": "a prompt that parts before response_start, or a new answer of fork_threshold ids or more, forks.",
        "zh": "prompt 在 response_start 之前就分开，或者新回答达到 fork_threshold 个 token 以上，就 fork。"},
    "rule_classify_rule": {
        "en": "clean if the prompt starts with every held id; realign if it parts at or after response_start and "
              "output_length < fork_threshold; fork otherwise.",
        "zh": "prompt 以全部已持有的 token 开头就是 clean，在 response_start 或其后分开并且 output_length < "
              "fork_threshold 就是 realign，其余情况一律 fork。"},
    "rule_append_clean": {
        "en": "a clean append adds the prompt's ids beyond the strip (mask 0), sets response_start to the new "
              "length, then adds the output (mask 1).",
        "zh": "clean 的追加先加上 prompt 中超出 strip 的 token（掩码 0），把 response_start 设为新的长度，"
              "再加上输出（掩码 1）。"},
    "rule_append_realign": {
        "en": "a realign first cuts the strip back to response_start, then appends as a clean turn does: the old "
              "answer's place is taken by the prompt's own ids, at mask 0.",
        "zh": "realign 先把 strip 截回到 response_start，再像 clean 那样追加，旧回答的位置由 prompt 自己的 token "
              "接替，掩码为 0。"},
}
