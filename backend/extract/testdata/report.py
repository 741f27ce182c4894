#!/usr/bin/env python3
"""Print the total of an invoice."""

def total(lines):
    # sum of quantity * price
    return sum(q * p for q, p in lines)

if __name__ == "__main__":
    print(total([(2, 3.5), (1, 10)]))
