"""Reads a callgrind output file into the server's parts (Scripts/callgrind-server.py --parts).

Every function the server runs is owned by one part, by its symbol: a part's cost is the self cost of its own
functions plus everything they call that no part owns (the standard library's specializations, the Swift
runtime, libc). So `JSONWriter.number` called while encoding a `state` counts for "state encode", the same
function called by the trace file counts for "trace file", and memcpy counts for whoever copied.
"""
import re

# (part, test on the function's object file and name), first match wins. Swift symbols start with `$s`
# followed by the module's name, length first.
PARTS = [
    ("state encode", lambda ob, fn: fn.startswith(("$s10ScrollCore13ServerMessageO", "$s10ScrollCore11EventRecordV7encoded"))),
    ("JSON decode", lambda ob, fn: fn.startswith("$s10ScrollCore13ClientMessageO6decode")),
    ("trace file", lambda ob, fn: fn.startswith("$s16PlaygroundServer9TraceFileC")),
    ("reducer", lambda ob, fn: fn.startswith(("$s10ScrollCore12SessionStateV", "$s11ScrollRules"))),
    ("transport, Swift side", lambda ob, fn: fn.startswith("$s12LWSTransport")),
    ("host glue", lambda ob, fn: fn.startswith("$s16PlaygroundServer")),
    ("libwebsockets + libev", lambda ob, fn: "libwebsockets" in ob or "/libev.so" in ob),
]
PART_NAMES = [name for name, _ in PARTS] + ["other (start-up, unowned)"]

# Runtime functions counted wherever they are called from: (label, test on the name).
RUNTIME = [
    ("memcpy/memmove", lambda fn: fn.startswith(("__memcpy", "__memmove", "memcpy", "memmove"))),
    ("exclusivity (swift_beginAccess/endAccess)", lambda fn: fn.startswith(("swift_beginAccess", "swift_endAccess"))),
    ("retain/release", lambda fn: re.match(r"swift_(retain|release|bridgeObjectRe|unknownObjectRe)", fn) is not None),
    ("allocation (malloc/free, swift_allocObject)",
     lambda fn: fn in ("malloc", "free", "realloc", "_int_malloc", "_int_free", "cfree", "malloc_consolidate")
     or fn.startswith(("swift_allocObject", "swift_deallocObject", "swift_slowAlloc", "swift_slowDealloc", "__libc_malloc", "__libc_free", "_int_realloc"))),
    ("Dictionary hashing (Hasher)", lambda fn: "Hasher" in fn or fn.startswith("$ss7HasherV")),
]
COUNTED_CALLS = [("epoll_wait", lambda fn: fn == "epoll_wait"), ("swift_beginAccess", lambda fn: fn == "swift_beginAccess"),
                 ("ClientMessage.decode", lambda fn: fn == "$s10ScrollCore13ClientMessageO6decodeyACSays5UInt8VGAA13ProtocolErrorVYKFZ")]


def _name(table, text):
    """`(id) name` defines, `(id)` refers."""
    match = re.match(r"\((\d+)\)(?: (.*))?$", text)
    if not match:
        return text
    if match.group(2) is not None:
        table[match.group(1)] = match.group(2)
    return table.get(match.group(1), text)


def read(path):
    """Per part: cost; per runtime label: self cost; per counted call: number of calls; the total; and
    per function: its self cost."""
    obs, files, fns = {}, {}, {}
    owner_cache = {}

    def owner(ob, fn):
        key = (ob, fn)
        if key not in owner_cache:
            owner_cache[key] = next((name for name, test in PARTS if test(ob, fn)), None)
        return owner_cache[key]

    parts = dict.fromkeys(PART_NAMES, 0)
    runtime = dict.fromkeys([label for label, _ in RUNTIME], 0)
    calls = dict.fromkeys([label for label, _ in COUNTED_CALLS], 0)
    functions = {}  # self cost per function
    total = 0
    ob = fn = ""
    cob = cfn = None
    pending_call = None  # count of the call whose cost line comes next
    with open(path) as file:
        for line in file:
            if not line or line[0] == "\n":
                continue
            head = line[0]
            if head.isdigit() or head in "+-*":
                fields = line.split()
                cost = int(fields[1]) if len(fields) > 1 else 0
                mine = owner(ob, fn)
                if pending_call is not None:
                    callee_owner = owner(cob if cob is not None else ob, cfn)
                    if mine is not None and callee_owner is None:
                        parts[mine] += cost
                    for label, test in COUNTED_CALLS:
                        if test(cfn):
                            calls[label] += pending_call
                    pending_call = None
                    cob = cfn = None
                    continue
                total += cost
                functions[fn] = functions.get(fn, 0) + cost
                if mine is not None:
                    parts[mine] += cost
                for label, test in RUNTIME:
                    if test(fn):
                        runtime[label] += cost
                continue
            key, _, value = line.rstrip("\n").partition("=")
            if key == "ob":
                ob = _name(obs, value)
            elif key in ("fl", "fi", "fe", "cfi", "cfl"):
                _name(files, value)
            elif key == "fn":
                fn = _name(fns, value)
                cob = cfn = None
            elif key == "cob":
                cob = _name(obs, value)
            elif key == "cfn":
                cfn = _name(fns, value)
            elif key == "calls":
                pending_call = int(value.split()[0])
    # What no part owns and no part called: start-up, threads that are not the server's loop.
    parts[PART_NAMES[-1]] = total - sum(parts.values())
    return {"parts": parts, "runtime": runtime, "calls": calls, "total": total, "functions": functions}
