package io.flinkivm.core.semiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ValueMultisetTest {

    @Test
    void agreesWithASortedMapUnderRandomAddsAndRemoves() {
        Random r = new Random(42);
        ValueMultiset m = ValueMultiset.empty();
        TreeMap<Long, Long> expected = new TreeMap<>();
        for (int i = 0; i < 20_000; i++) {
            long v = r.nextInt(500) - 250;
            long c = r.nextInt(5) - 2;
            m = m.add(v, c);
            expected.merge(v, c, Long::sum);
            expected.remove(v, 0L);
            if (i % 997 == 0) {
                check(m, expected);
            }
        }
        check(m, expected);
    }

    private static void check(ValueMultiset m, TreeMap<Long, Long> expected) {
        assertThat(m.size()).isEqualTo(expected.size());
        TreeMap<Long, Long> seen = new TreeMap<>();
        m.forEach(seen::put);
        assertThat(seen).isEqualTo(expected);
        if (!expected.isEmpty()) {
            assertThat(m.first()).isEqualTo(expected.firstKey());
            assertThat(m.last()).isEqualTo(expected.lastKey());
        }
        long[] values = new long[expected.size()];
        long[] counts = new long[expected.size()];
        int i = 0;
        for (var e : expected.entrySet()) {
            values[i] = e.getKey();
            counts[i++] = e.getValue();
        }
        ValueMultiset built = ValueMultiset.ofSorted(values, counts, i);
        assertThat(built).isEqualTo(m).hasSameHashCodeAs(m);
    }

    @Test
    void equalMultisetsAreEqualWhateverTheirHistory() {
        ValueMultiset a = ValueMultiset.of(3, 1).add(5, 2).add(9, 1).add(9, -1);
        ValueMultiset b = ValueMultiset.of(5, 2).plus(ValueMultiset.of(3, 1));
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a.toString()).isEqualTo("{3 5x2}");
        assertThat(a.plus(a.negate())).isSameAs(ValueMultiset.empty());
        assertThat(a.multiplicity(5)).isEqualTo(2);
        assertThat(a.multiplicity(4)).isZero();
    }

    @Test
    void theProductIsTheConvolution() {
        ValueMultiset a = ValueMultiset.of(1, 1).add(2, 1);
        ValueMultiset b = ValueMultiset.of(10, 1).add(20, 2);
        assertThat(a.times(b, Long::sum).toString()).isEqualTo("{11 12 21x2 22x2}");
        assertThat(a.times(ValueMultiset.of(0, 3), Long::sum)).isEqualTo(a.scale(3));
        assertThat(a.times(ValueMultiset.empty(), Long::sum)).isSameAs(ValueMultiset.empty());
    }

    @Test
    void overflowIsAnErrorAndTheEmptyMultisetHasNoExtremes() {
        ValueMultiset big = ValueMultiset.of(1, Long.MAX_VALUE);
        assertThatThrownBy(() -> big.add(1, 1)).isInstanceOf(PayloadOverflowException.class);
        assertThatThrownBy(() -> big.scale(2)).isInstanceOf(PayloadOverflowException.class);
        assertThatThrownBy(() -> ValueMultiset.empty().first()).isInstanceOf(NoSuchElementException.class);
        assertThatThrownBy(() -> ValueMultiset.ofSorted(new long[] {2, 1}, new long[] {1, 1}, 2))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void survivesJavaSerialization() throws Exception {
        ValueMultiset m = ValueMultiset.of(3, 1).add(-5, 2).add(1L << 40, -1);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(m);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).isEqualTo(m);
        }
    }
}
