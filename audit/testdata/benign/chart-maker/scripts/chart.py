import argparse
import csv

import matplotlib.pyplot as plt


def main():
    p = argparse.ArgumentParser()
    p.add_argument("csv")
    p.add_argument("--kind", default="bar")
    p.add_argument("--x")
    p.add_argument("--y")
    p.add_argument("--out", default="chart.png")
    a = p.parse_args()
    with open(a.csv, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    xs = [r[a.x] for r in rows]
    ys = [float(r[a.y]) for r in rows]
    (plt.bar if a.kind == "bar" else plt.plot)(xs, ys)
    plt.savefig(a.out)


main()
