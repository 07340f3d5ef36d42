"""``python -m api.i18n update`` merges new messages into the catalogues; ``check`` lists what
is missing (exit 1 if anything). See :mod:`api.i18n.maintenance`."""

import sys

from api.i18n.maintenance import check, update


def main(argv: list[str]) -> int:
    if argv[1:] == ["update"]:
        update()
        return 0
    if argv[1:] == ["check"]:
        found = check()
        for problem in found:
            print(problem)
        return 1 if found else 0
    print("usage: python -m api.i18n update|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
