"""Every word `render` (rendering.py) writes for a person, in English and in Chinese.

What a template says through raise_exception, what jinja2 or Python say about an error,
exception class names and code names are quoted as they are, in either language. In Chinese a
sentence says what happened and what to do, and the exception follows it as Python prints it
("ZeroDivisionError: division by zero"), so that the frame's colon is the message's only full-width one
(tutorial.words picks which: the current language).
"""

WORDS = {
    "en": {
        "frame": "chat template {template}: {problem}",
        "label file": "file {path!r}",
        "label none": "(none)",
        "label family": "{name!r} ({file})",
        "label text": "given as text",
        "cannot read": "cannot be read: {error}",
        "not a template": "template must be a family name, a shipped name, a path or template text, got {kind}",
        "templates not fetched": "the real templates are not fetched yet; run: {hint}",
        "unknown": "unknown chat template {name!r}: families are {families}; "
                   "the package's own simplified templates are {shipped}; "
                   "pass a pathlib.Path to render a file, or template text containing Jinja tags",
        "no shipped": "no shipped chat template {name!r}; shipped: {shipped}",
        "not a list": "messages must be a list of message objects, got {kind}",
        "at": "{placed}",
        "refused": "refused the messages: {words}",
        "stopped": "the sandbox stopped it: {error}",
        "overflow": "the sandbox stopped it: {error}",
        "unsafe": "the sandbox stopped it: {error}. A chat template may read the messages and tools, "
                  "not Python internals, and may not change them",
        "syntax": "syntax error on line {line}: {message}",
        "template error": "{kind}: {error}",
        "undefined value": "{kind}: {error}",
        "recursion": "the template recursed too deeply (a macro or loop that calls itself without end)",
        "while rendering": "{kind} while rendering: {error}",
        "need a family": "token ids need a model's vocabulary: pass a family name ({families})",
        "no vocabulary": "no token ids for {name}: {why}; render with tokenize=False",
        "need tokenizers": "token ids need the tokenizers package: pip install -e '.[real]' (or python3 tasks.py setup)",
        "vocabularies not fetched": "the real vocabularies are not fetched yet; run: {hint}",
        "undefined": "tojson got an undefined value{name}",
        "undefined name": " ({name!r} is missing)",
        "indent": "tojson's indent is limited to 64",
        "separators": "tojson's separators are limited to 64 characters",
        "attribute": "access to attribute {attribute!r} of {kind!r} object is unsafe",
        "calls": "a render may make at most {limit:,} calls (of functions, methods and macros)",
        "range_items": "a render may make at most {limit:,} range() items in all",
        "output": "a render may produce at most {limit:,} characters",
        "string": "a template may build strings of at most {limit:,} characters, not {length:,}",
        "list": "a template may build lists of at most {limit:,} items, not {length:,}",
        "integer": "a template may build integers of at most {limit} digits",
        "format width": "a template may not compute a format width ({{...}} inside a format spec)",
        "missing token message": "messages[{index}] ({role}): ",
        "missing token line": " on line {line}",
        "missing token unnamed": "the template uses {name}{line}, and a template given as a path or text gets no "
                                 "special tokens but those you pass: render(..., {name}=\"...\") with the value "
                                 "of the model's tokenizer_config.json, as apply_chat_template passes it",
        "missing token family": "the template uses {name}{line}, which this family is not given: "
                                "pass render(..., {name}=\"...\") with the value of the model's tokenizer_config.json",
        "not a variable": "template variables must be plain JSON; {placed}",
    },
    "zh": {
        "frame": "聊天模板{template}：{problem}",
        "label file": "文件 {path!r}",
        "label none": "（无）",
        "label family": "{name!r}（{file}）",
        "label text": "（直接传入的文本）",
        "cannot read": "无法读取（{error}）",
        "not a template": "template 须是模型家族名、本包自带模板名、路径或模板文本，收到的是 {kind}",
        "templates not fetched": "真实模板还没有下载，请运行 {command}（下载 llama.cpp 的真实聊天模板和词表，约 37 MB）",
        "unknown": "这个名字既不是模型家族，也不是本包自带的模板。模型家族有 {families}，本包自带的简化模板有 {shipped}。"
                   "要渲染一个文件，请传入 pathlib.Path，或者传入含 Jinja 标签的模板文本",
        "no shipped": "本包没有自带名为 {name!r} 的聊天模板，自带的只有 {shipped}",
        "not a list": "messages 须是由消息对象组成的列表，收到的是 {kind}",
        "at": "{placed}",
        "refused": "模板拒绝渲染（{words}）",
        "stopped": "{error}，沙箱因此拦下了这次渲染，请把模板改到这条限制之内",
        "overflow": "沙箱拦下了这次渲染，请把模板里的数字或 range() 改小。{kind}: {error}",
        "unsafe": "{error}，沙箱因此拦下了这次渲染。聊天模板可以读取消息和工具，但不能触及 Python 内部对象，也不能修改它们",
        "syntax": "第 {line} 行有语法错误（{message}）",
        "template error": "模板执行出错，请检查模板在这一处的写法。{kind}: {error}",
        "undefined value": "模板读到了一个不存在的值，请检查消息和工具里有没有模板要读的字段。{kind}: {error}",
        "recursion": "模板递归太深（某个宏或循环在无休止地调用自己）",
        "while rendering": "渲染途中出错，请检查模板在这一步用到的值。{kind}: {error}",
        "need a family": "token id 需要模型的词表，请传入模型家族名（{families}）",
        "no vocabulary": "无法给出 {name} 的 token id（{why}），请用 tokenize=False 渲染",
        "need tokenizers": "token id 需要 tokenizers 包，请运行 pip install -e '.[real]'（或 python3 tasks.py setup）",
        "vocabularies not fetched": "真实词表还没有下载，请运行 {command}（下载 llama.cpp 的真实聊天模板和词表，约 37 MB）",
        "undefined": "tojson 收到一个未定义的值{name}",
        "undefined name": "，缺少 {name!r}",
        "indent": "tojson 的 indent 最大为 64",
        "separators": "tojson 的 separators 最多 64 个字符",
        "attribute": "访问 {kind!r} 对象的属性 {attribute!r} 不安全",
        "calls": "一次渲染最多调用 {limit:,} 次（函数、方法和宏）",
        "range_items": "一次渲染中 range() 最多共给出 {limit:,} 项",
        "output": "一次渲染最多产出 {limit:,} 个字符",
        "string": "模板构造的字符串最多 {limit:,} 个字符，这里要 {length:,} 个",
        "list": "模板构造的列表最多 {limit:,} 项，这里要 {length:,} 项",
        "integer": "模板构造的整数最多 {limit} 位",
        "format width": "模板不能计算格式宽度（格式说明里不能有 {{...}}）",
        "missing token message": "渲染 messages[{index}]（{role}）时，",
        "missing token line": "（第 {line} 行）",
        "missing token unnamed": "模板用到了 {name}{line}，而以路径或文本给出的模板只能拿到你传入的特殊 token。"
                                 "请用 render(..., {name}=\"...\") 传入，值取自模型的 tokenizer_config.json，"
                                 "和 apply_chat_template 传的一样",
        "missing token family": "模板用到了 {name}{line}，但这个模型家族没有给出这个 token。"
                                "请用 render(..., {name}=\"...\") 传入，值取自模型的 tokenizer_config.json",
        "not a variable": "模板变量须是普通 JSON，而 {placed}",
    },
}  # fmt: skip
