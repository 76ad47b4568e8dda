#!/usr/bin/env python3
"""Counts the atomic read-modify-write instructions (`lock`-prefixed, and `xchg` with memory)
one operation of a Profile workload executes, by function, from two callgrind runs of
different lengths: the difference divided by the difference of the operation counts.

Usage (a copy stripped of debug information, which valgrind cannot read for Swift 6.3):
    strip --strip-debug Benchmarks/.build/release/Profile -o /tmp/Profile.s
    for n in 20000 60000; do
        valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=/tmp/cg-$n.out /tmp/Profile.s scope $n
    done
    Scripts/count-atomics.py /tmp/cg-20000.out /tmp/cg-60000.out 20000 60000

Each function's atomic instructions are found by disassembling its object with `objdump` and
located in callgrind's addresses by their offset from the function's lowest executed address
(taken for its entry, which every call executes).
"""
import collections
import re
import subprocess
import sys


def parse(path):
    """Per (object, function): executions of each instruction address, calls excluded."""
    objects, functions = {}, {}
    current_object = current_function = None
    last = 0
    in_call = False
    costs = collections.defaultdict(lambda: collections.defaultdict(int))
    for line in open(path):
        line = line.rstrip("\n")
        if not line:
            continue
        match = re.match(r"(c?)(ob|fn|fi|fl|fe)=\((\d+)\)(?: (.*))?", line)
        if match:
            called, kind, number, name = match.groups()
            table = objects if kind == "ob" else functions if kind == "fn" else None
            if table is not None and name:
                table[number] = name
            if not called and kind == "ob":
                current_object = objects[number]
            if not called and kind == "fn":
                current_function = functions[number]
            continue
        if line.startswith("calls="):
            in_call = True
            continue
        tokens = line.split()
        first = tokens[0]
        if first.startswith("0x"):
            address = int(first, 16)
        elif first.startswith("+"):
            address = last + int(first[1:])
        elif first.startswith("-"):
            address = last - int(first[1:])
        elif first == "*":
            address = last
        else:
            continue
        last = address
        if in_call:  # the inclusive cost of a call, not an execution
            in_call = False
            continue
        if len(tokens) > 2:  # positions: instruction, line; then Ir
            costs[(current_object, current_function)][address] += int(tokens[2])
    return costs


disassembled = {}


def atomic_offsets(obj, function):
    if obj not in disassembled:
        text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", obj], capture_output=True, text=True).stdout
        table, name, start = {}, None, 0
        for line in text.split("\n"):
            header = re.match(r"^([0-9a-f]+) <(.*)>:$", line)
            if header:
                start, name = int(header.group(1), 16), header.group(2)
                table[name] = []
                continue
            instruction = re.match(r"^\s+([0-9a-f]+):\s+(.*)$", line)
            if instruction and name and (
                instruction.group(2).startswith("lock") or re.match(r"xchg\s+%\w+,(-?0x[0-9a-f]+)?\(", instruction.group(2))
            ):
                table[name].append(int(instruction.group(1), 16) - start)
        disassembled[obj] = table
    return disassembled[obj].get(function, [])


def main():
    short, long_run = parse(sys.argv[1]), parse(sys.argv[2])
    operations = int(sys.argv[4]) - int(sys.argv[3])
    found = {}
    for (obj, function), executed in long_run.items():
        if not obj or not function:
            continue
        offsets = atomic_offsets(obj, function)
        if not offsets:
            continue
        before = short.get((obj, function), {})
        entry, entry_before = min(executed), (min(before) if before else 0)
        count = sum(executed.get(entry + o, 0) - before.get(entry_before + o, 0) for o in offsets)
        if count / operations >= 0.005:  # not setup work that differs between the runs
            found[function] = count / operations
    for function, count in sorted(found.items(), key=lambda item: -item[1]):
        print(f"{count:7.2f} {function}")
    print(f"{sum(found.values()):7.2f} in all")


main()
