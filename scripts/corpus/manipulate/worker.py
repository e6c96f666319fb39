"""The pixel worker the TS manipulate generator drives: one JSON request per line on stdin,
{"op": name, "args": {...}}, answered by one JSON line on stdout, {"ok": true, "result": ...}
or {"ok": false, "error": "..."}. One process serves a whole run, so OpenCV loads once."""
import json
import os
import sys
import traceback

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cv2  # noqa: E402

# One thread: the results stay the same from run to run, and the corpus machines are shared.
cv2.setNumThreads(1)

import inpaint_retype  # noqa: E402
import paste_field  # noqa: E402
import portrait_swap  # noqa: E402
import print_photo  # noqa: E402
import screen_recapture  # noqa: E402

OPS = {
    "portrait_swap": portrait_swap.run,
    "inpaint_retype": inpaint_retype.run,
    "paste_field": paste_field.run,
    "print_photo": print_photo.run,
    "screen_recapture": screen_recapture.run,
}


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            result = OPS[request["op"]](request["args"])
            reply = {"ok": True, "result": result}
        except Exception as error:  # every failure goes back to the caller, which stops the run
            reply = {"ok": False, "error": f"{type(error).__name__}: {error}", "trace": traceback.format_exc(limit=3)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
