package io.flinkivm.core.semiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Comparator;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ObjectMultisetTest {

    private static final Chain STRING = Chain.of(Chain.Kind.STRING, "STRING");
    private static final Comparator<String> CODE_POINTS = Chain::compareCodePoints;

    @Test
    void agreesWithASortedMapUnderRandomAddsAndRemoves() {
        Random r = new Random(42);
        ObjectMultiset m = ObjectMultiset.empty(STRING);
        TreeMap<String, Long> expected = new TreeMap<>(CODE_POINTS);
        for (int i = 0; i < 20_000; i++) {
            String v = "v" + (r.nextInt(500) - 250);
            long c = r.nextInt(5) - 2;
            m = m.add(Chain.VALUE, v, c);
            expected.merge(v, c, Long::sum);
            expected.remove(v, 0L);
            if (i % 997 == 0) {
                check(m, expected);
            }
        }
        check(m, expected);
    }

    private static void check(ObjectMultiset m, TreeMap<String, Long> expected) {
        assertThat(m.size()).isEqualTo(expected.size());
        TreeMap<String, Long> seen = new TreeMap<>(CODE_POINTS);
        m.forEach((t, v, c) -> {
            assertThat(t).isEqualTo(Chain.VALUE);
            seen.put((String) v, c);
        });
        assertThat(seen).isEqualTo(expected);
        if (!expected.isEmpty()) {
            assertThat(m.firstValue()).isEqualTo(expected.firstKey());
            assertThat(m.lastValue()).isEqualTo(expected.lastKey());
            assertThat(m.multiplicity(Chain.VALUE, expected.firstKey()))
                    .isEqualTo(expected.firstEntry().getValue());
        }
        // The same multiset built in another order is equal, with the same hash.
        ObjectMultiset rebuilt = ObjectMultiset.empty(STRING);
        for (String k : expected.descendingKeySet()) {
            rebuilt = rebuilt.add(Chain.VALUE, k, expected.get(k));
        }
        assertThat(rebuilt).isEqualTo(m).hasSameHashCodeAs(m);
    }

    @Test
    void theProductTakesTheGreaterOfEachPairAndTheOneIsNeutral() {
        ObjectMultiset names = ObjectMultiset.of(STRING, Chain.VALUE, "b", 2).add(Chain.VALUE, "d", 1);
        ObjectMultiset other = ObjectMultiset.of(STRING, Chain.VALUE, "c", 3).add(Chain.BOTTOM, null, 1);
        // (2b + d) · (3c + ⊥) = 6c + 3d + 2b + d over max.
        assertThat(names.times(other, true).toString()).isEqualTo("{'b'x2 'c'x6 'd'x4}");
        // Over min: b·c = b, d·c = c, b·⊥ = ⊥, d·⊥ = ⊥.
        assertThat(names.times(other, false).toString()).isEqualTo("{bottomx3 'b'x6 'c'x3}");
        ObjectMultiset one = ObjectMultiset.of(STRING, Chain.BOTTOM, null, 1);
        assertThat(names.times(one, true)).isSameAs(names);
        assertThat(names.times(ObjectMultiset.of(STRING, Chain.BOTTOM, null, -2), true))
                .isEqualTo(names.scale(-2));
        assertThat(names.plus(names.negate()).isEmpty()).isTrue();
        assertThat(names.times(ObjectMultiset.empty(STRING), true).isEmpty()).isTrue();
    }

    @Test
    void theProductAgreesWithPairwiseMultiplication() {
        Random r = new Random(3);
        for (int round = 0; round < 200; round++) {
            ObjectMultiset a = random(r);
            ObjectMultiset b = random(r);
            for (boolean greater : new boolean[] {true, false}) {
                ObjectMultiset[] expected = {ObjectMultiset.empty(STRING)};
                a.forEach((t, v, c) -> b.forEach((u, w, d) -> {
                    boolean first = greater ? STRING.compare(t, v, u, w) >= 0 : STRING.compare(t, v, u, w) <= 0;
                    expected[0] = expected[0].add(first ? t : u, first ? v : w, c * d);
                }));
                assertThat(a.times(b, greater)).isEqualTo(expected[0]);
            }
        }
    }

    private static ObjectMultiset random(Random r) {
        ObjectMultiset m = ObjectMultiset.empty(STRING);
        for (int k = r.nextInt(5); k > 0; k--) {
            int pick = r.nextInt(8);
            long tag = pick == 0 ? Chain.BOTTOM : pick == 1 ? Chain.TOP : Chain.VALUE;
            m = m.add(tag, tag == Chain.VALUE ? "s" + r.nextInt(6) : null, r.nextInt(5) - 2);
        }
        return m;
    }

    @Test
    void emptyHasNoExtremesAndMultisetsOfTwoChainsDoNotMix() {
        assertThatThrownBy(() -> ObjectMultiset.empty(STRING).firstTag()).isInstanceOf(NoSuchElementException.class);
        ObjectMultiset decimals = ObjectMultiset.empty(Chain.decimal(30, 2, "DECIMAL(30, 2)"));
        assertThatThrownBy(() -> decimals.plus(ObjectMultiset.empty(STRING)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("multisets of two chains");
        assertThatThrownBy(() -> ObjectMultiset.ofSorted(
                        STRING, new long[] {0, 0}, new Object[] {"b", "a"}, new long[] {1, 1}, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must increase");
        assertThatThrownBy(() -> ObjectMultiset.of(STRING, Chain.VALUE, "a", Long.MAX_VALUE)
                        .add(Chain.VALUE, "a", 1))
                .isInstanceOf(PayloadOverflowException.class)
                .hasMessageContaining("multiplicity overflow");
    }

    @Test
    void survivesJavaSerialization() throws Exception {
        ObjectMultiset m = ObjectMultiset.of(STRING, Chain.VALUE, "x", 2)
                .add(Chain.BOTTOM, null, -1)
                .add(Chain.VALUE, "a", 5);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(m);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            Object back = in.readObject();
            assertThat(back).isEqualTo(m).hasSameHashCodeAs(m);
            assertThat(((ObjectMultiset) back).firstTag()).isEqualTo(Chain.BOTTOM);
        }
    }
}
