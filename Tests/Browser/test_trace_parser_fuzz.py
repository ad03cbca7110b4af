"""The page's trace reader (Public/js/trace-file.js) on mutated traces, in chromium: every input is read or
refused with an Error naming its line ("line N: …"), never a TypeError or a hang, like `replay` (issue 43).
The mutations are Fuzz/commands_fuzz.py's, seeded, so a failure names an input that can be made again."""

from __future__ import annotations

import random
import sys

from conftest import REPO

sys.path.insert(0, str(REPO / "Fuzz"))
from commands_fuzz import mutate  # noqa: E402

INPUTS_PER_TRACE = 60
SEED = 43

READ_ALL = """async (texts) => {
  const { parseTrace } = await import("/js/trace-file.js");
  const found = [];
  let read = 0, refused = 0;
  texts.forEach((text, index) => {
    try {
      parseTrace(text);
      read++;
    } catch (error) {
      if (error?.constructor === Error && /^line \\d+: /.test(error.message)) refused++;
      else found.push(`${index}: ${error?.constructor?.name}: ${error?.message}`);
    }
  });
  return { read, refused, found };
}"""


def test_the_pages_trace_reader_reads_or_refuses_every_mutated_trace(start_server, open_page):
    server = start_server()
    page, _ = open_page(server)
    rng = random.Random(SEED)
    texts = []
    for path in sorted((REPO / "Examples" / "traces").glob("*.jsonl")):
        data = path.read_bytes()
        texts += [mutate(data, rng).decode("utf-8", "replace") for _ in range(INPUTS_PER_TRACE)]
    outcome = page.evaluate(READ_ALL, texts)
    assert outcome["found"] == [], outcome["found"][:5]
    assert outcome["read"] + outcome["refused"] == len(texts)
    # The mutations reach both sides: some traces still read, many are refused with their line.
    assert outcome["read"] > 0 and outcome["refused"] > len(texts) // 4, outcome


def test_a_clock_that_goes_back_is_refused_with_its_line(start_server, open_page):
    server = start_server()
    page, _ = open_page(server)
    text = "\n".join([
        '{"kind":"header","format":1,"session":"p1","server":"x","config":{}}',
        '{"kind":"input","t":5000,"message":{"type":"hello","version":1}}',
        '{"kind":"input","t":10,"message":{"type":"loadMore"}}',
    ]) + "\n"
    message = page.evaluate(
        """async (text) => {
          const { parseTrace } = await import("/js/trace-file.js");
          try { parseTrace(text); return "read"; } catch (error) { return error.message; }
        }""",
        text,
    )
    assert message.startswith("line 3: ") and "goes back" in message, message
