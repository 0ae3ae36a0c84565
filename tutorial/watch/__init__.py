"""Watching the lesson run: `trace` (every stage's input and output, and what produced
what), the loss report (what stays behind, and why), a JSON diff, and `render`, a
sandboxed preview of the chat-template stage that comes after Action 2; after Action 3.5,
three ways of keeping a session's training tokens measured side by side
(`trajectory_strategies`).

May import: the lesson (the modules at the top of `tutorial`). Nothing in the lesson
imports this folder, so the translation never knows it is being watched.
"""
