"""Chapter 13, the turn's trajectory: predictions about what a training run keeps of the README
example's two turns. Every right answer is computed: the prompts with Qwen3's real template and
vocabulary, the samples with `tutorial.trajectory`, the family table with `watch/drift.py`."""

from __future__ import annotations

from functools import lru_cache
from . import Exercise, Mistake, add


@lru_cache(maxsize=None)
def _turns() -> tuple:
    from ...watch.trajectory_strategies import readme_session

    return tuple(readme_session())


def _extends() -> bool:
    first, second = _turns()
    held = first["prompt_ids"] + first["output_ids"]
    return second["prompt_ids"][: len(held)] == held


def _kind() -> str:
    from ... import trajectory

    first, second = _turns()
    builder = trajectory.SampleBuilder(1024)
    builder.append(_record(first), trajectory.CLEAN)
    return {"clean": "a", "realign": "b", "fork": "c"}[builder.classify(_record(second))]


def _record(turn: dict):
    from ... import trajectory

    return trajectory.TurnRecord(turn["prompt_ids"], turn["output_ids"], "stop", turn["output_log_probs"])


def _turn_one_trained() -> int:
    """How many of turn 1's generated tokens are trained in the samples Slime's rules make."""
    from ...watch.trajectory_strategies import slime_trajectory

    first, _ = _turns()
    start, length = len(first["prompt_ids"]), len(first["output_ids"])
    trained = 0
    for sample in slime_trajectory(list(_turns())):
        prompt_length = len(sample.tokens) - sample.response_length
        for position in range(start, start + length):
            at = position - prompt_length
            if 0 <= at < len(sample.loss_mask) and sample.tokens[position] == first["output_ids"][position - start]:
                trained += sample.loss_mask[at]
    return trained


def _families() -> int:
    from ...watch import drift

    return len(drift.summary("readme")["text_extends"])


def _never_realign() -> dict:
    from ...watch.trajectory_strategies import measure

    row = measure(list(_turns()), "never_realign")
    return {"samples": row["samples"], "recomputed": row["recomputed"]}


def _reminder_kind() -> str:
    """What becomes of turn 1's answer in `thinking_in_tool_loop` once its tool result comes
    with a reminder text: the letter of the kind the manager gives turn 2."""
    from ... import trajectory
    from ...watch.trajectory_strategies import recorded_sessions, with_reminder

    turns = with_reminder(recorded_sessions()["thinking_in_tool_loop"]["turns"])
    builder = trajectory.SampleBuilder(1024)
    builder.append(_record(turns[0]), trajectory.CLEAN)
    return {"clean": "a", "realign": "b", "fork": "c"}[builder.classify(_record(turns[1]))]


KINDS = {
    "a": "clean: the prompt extends the held tokens; append the rest of it, then the answer",
    "b": "realign: overwrite turn 1's answer with the prompt's own tokens, then append the answer",
    "c": "fork: close this sample and start a new one from turn 2's prompt",
    "d": "none: a prompt that does not extend the held ids cannot be recorded, so turn 2 is left out",
}
KINDS_ZH = {
    "a": "clean：prompt 接续已持有的 token，先追加 prompt 剩下的部分，再追加回答",
    "b": "realign：用 prompt 自己的 token 覆盖第 1 轮的回答，再追加回答",
    "c": "fork：结束这个样本，从第 2 轮的 prompt 开始一个新样本",
    "d": "都不是：不能接续已持有 token 的 prompt 无法记录，第 2 轮被舍弃",
}


add(
    Exercise(
        key="13.extends",
        question="After turn 1 the manager holds turn 1's prompt ids followed by the ids the model wrote. "
        "Turn 2's prompt is the whole README request, rendered again. Does it start with every held id, "
        "in order? True or False.",
        expected=_extends,
        mistakes=(
            Mistake(
                True,
                "Only if the template writes history exactly as the model wrote it. Compare the text the model "
                "wrote for turn 1 with the way turn 2's prompt shows that same assistant message.",
                "只有当模板写出的历史与模型当初写的完全一样时才会如此。把模型在第 1 轮写的文本，"
                "与第 2 轮 prompt 里同一条 assistant 消息的写法对照一下。",
            ),
            Mistake(
                157,
                "The question asks yes or no: answer True or False, whether all 188 held ids come first.",
                "问题问的是“是不是”，请用 True 或 False 回答，判断 188 个已持有的 token 是否全部排在最前面。",
                matches=lambda answer: isinstance(answer, int) and not isinstance(answer, bool),
            ),
        ),
        hint="Look at how the model's answer began, and at how a re-rendered history shows an earlier answer.",
        explanation="the model opened its answer with an empty think block, and Qwen3's template leaves that "
        "block out when it writes an earlier answer into history. The two token lists agree up to the end of "
        "turn 1's prompt and part at the first token of the answer.",
        form="True or False",
        zh={
            "question": "第 1 轮结束后，manager 持有第 1 轮的 prompt token，后面接着模型写出的 token。"
            "第 2 轮的 prompt 是整个 README 请求重新渲染的结果。这个 prompt 是否按顺序以全部已持有的 token 开头"
            "（请回答 True 或 False）？",
            "hint": "看看模型的回答是怎样开头的，再看重新渲染的历史里这条较早的回答是什么样子。",
            "explanation": "模型的回答以一个空的 think 块开头，而 Qwen3 的模板把较早的回答写进历史时会省掉这个块。"
            "两串 token 在第 1 轮 prompt 结尾之前完全一致，从回答的第一个 token 起分开。",
            "form": "True 或 False",
        },
    )
)

add(
    Exercise(
        key="13.kind",
        question="Turn 1's answer begins at index 157 of the strip (157 ids come before it); turn 2's answer is "
        "10 ids long, and the fork threshold is 1,024. Which kind does Slime's manager give turn 2?",
        choices=KINDS,
        expected=lambda: _kind(),
        wrong="a",
        feedback={
            "a": "A clean turn needs the prompt to hold every held id first. Here the two part before the held "
            "ids end.",
            "c": "Slime forks when the parting comes before the last answer, or when the new answer is long. "
            "Check both conditions against the numbers in the question.",
            "d": "The manager keeps every turn it is given; the question is only which strip a turn joins and how.",
        },
        hint="Two facts decide: where the prompt parts from the held ids, and how long the new answer is.",
        explanation="the parting lies inside the last answer and the new answer is short, so the manager cuts "
        "the strip back to where turn 1's answer began and lets turn 2's prompt take its place.",
        zh={
            "question": "第 1 轮的回答从 token 串的下标 157 处开始（前面有 157 个 token），第 2 轮的回答长 10 个 token，"
            "fork 阈值是 1,024。"
            "Slime 的 manager 会把第 2 轮归为哪一种？",
            "choices": KINDS_ZH,
            "feedback": {
                "a": "clean 要求 prompt 先完整包含所有已持有的 token。这里两者在已持有的 token 结束之前就分开了。",
                "c": "只有在上一个回答开始之前就分开，或者新回答很长时，Slime 才会 fork。"
                "请拿题目里的数字逐一核对这两个条件。",
                "d": "交给 manager 的每一轮都会被记录，问题只在于这一轮加入哪条 token 串、以什么方式加入。",
            },
            "hint": "有两件事起决定作用，一是 prompt 在哪里与已持有的 token 分开，二是新回答有多长。",
            "explanation": "分开的位置在上一个回答之内，新回答又短，所以 manager 把这条 token 串截回到"
            "第 1 轮回答开始的地方，由第 2 轮的 prompt 接替那一段。",
        },
    )
)

add(
    Exercise(
        key="13.trained",
        question="The model wrote 31 tokens in turn 1. After get_trajectory, how many of those 31 carry "
        "loss_mask 1 in the session's samples?",
        expected=_turn_one_trained,
        mistakes=(
            Mistake(
                31,
                "That would hold for a clean turn. Think about what a realign does to the part of the strip "
                "where turn 1's answer was.",
                "只有在 clean 的情况下才是这样，请想一想 realign 对这条 token 串里第 1 轮回答所在的那一段做了什么。",
            ),
            Mistake(
                10,
                "10 is turn 2's answer. The question asks about turn 1's 31 tokens.",
                "10 是第 2 轮回答的 token 数，而题目问的是第 1 轮的 31 个 token。",
            ),
        ),
        hint="A realign overwrites the last answer with the prompt's own tokens. Which mask do prompt tokens get?",
        explanation="the realign replaced turn 1's answer with turn 2's re-rendering of it, and that re-rendering "
        "is prompt, masked 0. Turn 1's own tokens are nowhere in the sample.",
        form="a whole number",
        zh={
            "question": "模型在第 1 轮写了 31 个 token。调用 get_trajectory 之后，这 31 个 token 里"
            "有多少个在本会话的样本中带 loss_mask 1？",
            "hint": "realign 会用 prompt 自己的 token 覆盖上一个回答。prompt 的 token 得到的是哪个掩码值？",
            "explanation": "realign 用第 2 轮对第 1 轮回答的重新渲染替换了原来的回答，而这段重新渲染属于 prompt，"
            "掩码为 0。第 1 轮模型自己写的 token 在样本里已经不存在了。",
            "form": "一个整数",
        },
    )
)

add(
    Exercise(
        key="13.families",
        question="The package renders the README example with 11 families' real chat templates. In how many of "
        "them does turn 2's prompt, as text, start with turn 1's prompt followed by the answer as the model "
        "wrote it? (Think of the family whose template refuses the example's call ids, chapter 04b, and of "
        "the families that, like Qwen3 above, open an answer with a think block their history leaves out.)",
        expected=_families,
        mistakes=(
            Mistake(11, "Not every family writes history as its model wrote it; some even refuse these messages.",
                    "并不是每个模型家族都按模型当初写的样子写历史，有的家族甚至拒绝这些消息。"),
            Mistake(0, "Many templates write an earlier answer exactly as the model wrote it.",
                    "很多模板写出的较早回答与模型当初写的完全一样。"),
        ),
        hint="Think of the families whose answers open with a think block, and of a template that refuses the "
        "example's messages.",
        explanation="the thinking families that drop a reasoning block from history part, and one family "
        "refuses the example; the others extend.",
        form="a whole number",
        zh={
            "question": "本包用 11 个模型家族的真实聊天模板渲染 README 示例。其中有几个家族，"
            "第 2 轮的 prompt 作为文本以第 1 轮的 prompt 加上模型原样写出的回答开头？"
            "（想一想哪个家族的模板拒绝示例里的调用 id（第 04b 章），以及哪些家族像上面的 Qwen3 一样，"
            "回答以历史里不保留的 think 块开头。）",
            "hint": "想一想哪些家族的回答以 think 块开头，再想想有没有模板会拒绝示例里的消息。",
            "explanation": "会从历史里去掉 think 块的思考型家族在这里分开，有一个家族拒绝这个示例，其余的都能接续。",
            "form": "一个整数",
        },
    )
)

add(
    Exercise(
        key="13.never_realign",
        question="Never-realign keeps Slime's manager but forks whenever a prompt parts from the held ids. For the "
        "README session, how many samples does it make, and how many prompt tokens does training compute "
        "twice (the tokens a sample starts with that an earlier sample also starts with)? Answer "
        "{'samples': ..., 'recomputed': ...}.",
        expected=_never_realign,
        mistakes=(
            Mistake(
                {"samples": 1, "recomputed": 0},
                "That is Slime's own result. A fork closes the sample at the parting.",
                "这是 Slime 自己的结果，never realign 的 fork 则会在分开的地方结束当前样本。",
            ),
            Mistake(
                {"samples": 2, "recomputed": 0},
                "Two samples, yes. The second one starts from turn 2's whole prompt: what does it share with "
                "the first?",
                "两个样本没错，但第二个样本从第 2 轮的完整 prompt 开始，这个样本和第一个样本共享了什么？",
                matches=lambda answer: answer["samples"] == 2 and answer["recomputed"] == 0,
            ),
        ),
        hint="A fork starts a new sample from turn 2's whole prompt. The common prefix is turn 1's prompt.",
        explanation="two samples, and the second one repeats turn 1's whole prompt: every generated token is "
        "trained, at the price of computing that prefix twice.",
        form="a dict {'samples': <n>, 'recomputed': <n>}",
        zh={
            "question": "never realign 沿用 Slime 的 manager，但只要 prompt 与已持有的 token 分开就 fork。"
            "对 README 会话，never realign 产生几个样本？训练时有多少个 prompt token 被计算了两次"
            "（一个样本开头与更早样本开头相同的那些 token）？请用 {'samples': ..., 'recomputed': ...} 这样的字典作答。",
            "hint": "fork 从第 2 轮的完整 prompt 开始一个新样本，共同前缀就是第 1 轮的 prompt。",
            "explanation": "两个样本，第二个样本重复了第 1 轮的整个 prompt。每个生成的 token 都得到训练，"
            "代价是这段前缀要计算两次。",
            "form": "一个字典 {'samples': <数量>, 'recomputed': <数量>}",
        },
    )
)

add(
    Exercise(
        key="13.reminder",
        question="In the recorded session thinking_in_tool_loop the model reasons in turn 1 and calls read_file; "
        "turn 2 carries the tool result alone, and all 49 generated ids are trained. Now the client sends the "
        "same result with a short reminder text beside it, which the translation splits into a tool message and "
        "a user message. Under Qwen3 and Slime's manager, what becomes of turn 1's answer?",
        choices={
            "a": "turn 1's 39 generated ids stay in the sample and are trained",
            "b": "turn 1's answer is replaced by its re-rendering and is not trained",
            "c": "the session gives two samples, and both answers are trained",
            "d": "the manager refuses the turn: two messages after the tool result cannot be placed",
        },
        expected=_reminder_kind,
        wrong="a",
        feedback={
            "a": "That is the session without the reminder. The new user message is a new query to Qwen3's "
            "template: what does the template do with the reasoning of answers before it?",
            "c": "The prompts part inside turn 1's answer, and turn 2's answer is short: no fork.",
            "d": "The manager keeps every turn it is given, whatever messages its prompt holds.",
        },
        hint="Qwen3's template writes an earlier answer's reasoning only after the last user query. Where is "
        "the last user query once the reminder is a user message?",
        explanation="the reminder becomes a user message after turn 1's answer, Qwen3 takes it as the current "
        "query and writes turn 1's answer without its reasoning, so the prompts part inside that answer: a "
        "realign, and 10 of 49 generated ids trained instead of 49.",
        zh={
            "question": "在录制的会话 thinking_in_tool_loop 里，模型在第 1 轮先推理再调用 read_file，第 2 轮只带回工具结果，"
            "49 个生成的 token 全部参与训练。现在客户端发来同样的结果，旁边附一段简短的提醒文本，翻译把这条消息拆成一条 tool 消息和"
            "一条 user 消息。在 Qwen3 和 Slime 的 manager 下，第 1 轮的回答会怎样？",
            "choices": {
                "a": "第 1 轮生成的 39 个 token 留在样本里并参与训练",
                "b": "第 1 轮的回答被重新渲染的版本替换，不参与训练",
                "c": "这个会话产生两个样本，两个回答都参与训练",
                "d": "manager 拒绝这一轮，工具结果之后的两条消息无法安放",
            },
            "feedback": {
                "a": "这是没有提醒文本时的情形。新的 user 消息对 Qwen3 的模板来说是一次新提问，模板会怎样处理这次提问之前那些回答的推理？",
                "c": "两个 prompt 在第 1 轮回答之内分开，第 2 轮的回答又很短，所以不会 fork。",
                "d": "不管 prompt 里有哪些消息，交给 manager 的每一轮都会被记录。",
            },
            "hint": "Qwen3 的模板只为最后一次用户提问之后的回答写推理。提醒文本成为 user 消息之后，最后一次用户提问在哪里？",
            "explanation": "提醒文本在第 1 轮回答之后成为一条 user 消息，Qwen3 把这条消息当作当前提问，写第 1 轮回答时不再带推理，"
            "于是两个 prompt 在那个回答之内分开。结果是 realign，49 个生成的 token 里只有 10 个参与训练。",
        },
    )
)
