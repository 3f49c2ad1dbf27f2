"""The dp4a kernels' e2m1 look-ups, replayed on the CPU: PRMT and dp4a emulated bit for bit, the
tables read from the kernel source. CI has no GPU; these say, for every pair of e2m1 codes, that
the look-ups and sign handling of 76 (A split by its own signs against a signed B) and of 94 (B's
signs moved into A's selectors against 2|b| and -2|b|; 93t's word by word) give four times the exact
products."""
import itertools
import random
import re

import pytest

from common import attempts

E2M1 = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]


def tables(number: str) -> dict[str, int]:
    source = attempts.find(number).source.read_text()
    return {name: int(value, 16) for name, value in
            re.findall(r"\b(k(?:Mag|Neg)(?:Lo|Hi)) = (0x[0-9A-F]+)u", source)}


def prmt(a: int, b: int, sel: int) -> int:
    """PTX prmt.b32, default mode: byte i of the result is byte (nibble i of sel) & 7 of b:a,
    or that byte's sign replicated where the nibble's bit 3 is set."""
    source = (a | b << 32).to_bytes(8, "little")
    out = 0
    for i in range(4):
        nibble = sel >> 4 * i & 0xF
        byte = source[nibble & 7]
        out |= ((0xFF if byte & 0x80 else 0) if nibble & 8 else byte) << 8 * i
    return out


def dp4a(a: int, b: int, c: int) -> int:
    signed = lambda x: x - 256 if x >= 128 else x  # noqa: E731
    return c + sum(signed(a >> 8 * i & 0xFF) * signed(b >> 8 * i & 0xFF) for i in range(4))


def high_half(x: int) -> int:
    return x >> 16  # the kernels' __umulhi(x, 1 << 16)


def b_signed(t: dict, sel: int) -> tuple[int, int]:
    """76's B decode of four nibbles: 2b and -2b as signed int8."""
    mag = sel & 0x7777
    pos, neg = prmt(t["kMagLo"], t["kMagHi"], mag), prmt(t["kNegLo"], t["kNegHi"], mag)
    pick = (sel >> 1) & 0x4444 | 0x3210
    return prmt(pos, neg, pick), prmt(neg, pos, pick)


def word_76(t: dict, a: int, b: int) -> int:
    plus, minus = zip(b_signed(t, b & 0xFFFF), b_signed(t, high_half(b)))
    neg = a ^ 0x88888888
    d = dp4a(prmt(t["kMagLo"], t["kMagHi"], a), plus[0], 0)
    d = dp4a(prmt(t["kMagLo"], t["kMagHi"], neg), minus[0], d)
    d = dp4a(prmt(t["kMagLo"], t["kMagHi"], high_half(a)), plus[1], d)
    return dp4a(prmt(t["kMagLo"], t["kMagHi"], high_half(neg)), minus[1], d)


def word_94(t: dict, a: int, b: int) -> int:
    mag = b & 0x77777777
    plus = [prmt(t["kMagLo"], t["kMagHi"], m) for m in (mag, high_half(mag))]
    minus = [prmt(t["kNegLo"], t["kNegHi"], m) for m in (mag, high_half(mag))]
    pos = a ^ (b & 0x88888888)
    neg = pos ^ 0x88888888
    d = dp4a(prmt(t["kMagLo"], t["kMagHi"], pos), plus[0], 0)
    d = dp4a(prmt(t["kMagLo"], t["kMagHi"], neg), minus[0], d)
    d = dp4a(prmt(t["kMagLo"], t["kMagHi"], high_half(pos)), plus[1], d)
    return dp4a(prmt(t["kMagLo"], t["kMagHi"], high_half(neg)), minus[1], d)


def exact(a: int, b: int) -> float:
    value = lambda code: (-1 if code & 8 else 1) * E2M1[code & 7]  # noqa: E731
    return sum(value(a >> 4 * i & 0xF) * value(b >> 4 * i & 0xF) for i in range(8))


def words():
    """Every pair of codes in every one of the 8 places, then random words."""
    rng = random.Random(94)
    for place, x, y in itertools.product(range(8), range(16), range(16)):
        yield rng.getrandbits(32) & ~(0xF << 4 * place) | x << 4 * place, \
              rng.getrandbits(32) & ~(0xF << 4 * place) | y << 4 * place
    for _ in range(2000):
        yield rng.getrandbits(32), rng.getrandbits(32)


@pytest.mark.parametrize("number, word", [("76", word_76), ("94", word_94), ("93t", word_94)])
def test_the_lookups_give_four_times_the_exact_products(number, word):
    t = tables(number)
    assert set(t) == {"kMagLo", "kMagHi", "kNegLo", "kNegHi"}
    for a, b in words():
        assert word(t, a, b) == 4 * exact(a, b), (number, hex(a), hex(b))


def test_the_replay_can_fail():
    t = tables("94")
    t["kMagHi"] ^= 0x01000000  # 12 -> 13 for the code 7
    assert any(word_94(t, a, b) != 4 * exact(a, b) for a, b in words())
