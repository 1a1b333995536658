import json
import sys

from pypdf import PdfReader, PdfWriter


def main(argv):
    if argv[1] == "--fields":
        for name in PdfReader(argv[2]).get_fields() or {}:
            print(name)
        return
    reader = PdfReader(argv[1])
    writer = PdfWriter()
    writer.append(reader)
    with open(argv[2], encoding="utf-8") as f:
        data = json.load(f)
    for page in writer.pages:
        writer.update_page_form_field_values(page, data)
    with open(argv[3], "wb") as out:
        writer.write(out)


if __name__ == "__main__":
    main(sys.argv)
