package io.flinkivm.core.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TupleTest {

    @Test
    void valuesProjectionsAndCopiesAtEveryArity() {
        for (int arity = 0; arity <= 7; arity++) {
            Object[] values = new Object[arity];
            for (int i = 0; i < arity; i++) {
                values[i] = i % 2 == 0 ? (Object) (long) i : "s" + i;
            }
            Tuple t = Tuple.of(values);
            assertThat(t.arity()).isEqualTo(arity);
            for (int i = 0; i < arity; i++) {
                assertThat(t.get(i)).isEqualTo(values[i]);
            }
            assertThat(t.toArray()).containsExactly(values);
            assertThat(Tuple.wrap(values.clone())).isEqualTo(t).hasSameHashCodeAs(t);
            int[] reversed = new int[arity];
            for (int i = 0; i < arity; i++) {
                reversed[i] = arity - 1 - i;
            }
            Tuple r = t.project(reversed);
            for (int i = 0; i < arity; i++) {
                assertThat(r.get(i)).isEqualTo(values[arity - 1 - i]);
            }
            int bad = arity;
            assertThatThrownBy(() -> t.get(bad)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @Test
    void equalityDistinguishesArityOrderAndType() {
        assertThat(Tuple.of(1L, 2L)).isNotEqualTo(Tuple.of(2L, 1L));
        assertThat(Tuple.of(1L)).isNotEqualTo(Tuple.of(1L, 1L));
        assertThat(Tuple.of(1L)).isNotEqualTo(Tuple.of(1));
        assertThat(Tuple.of()).isSameAs(Tuple.EMPTY);
        assertThat(Tuple.of(1L, 2L).compareTo(Tuple.of(1L, 3L))).isNegative();
        assertThat(Tuple.of(1L, 2L, 3L, 4L, 5L)).isEqualTo(Tuple.of(1L, 2L, 3L, 4L, 5L));
    }

    @Test
    void smallConsecutiveKeysHashApart() {
        // A polynomial hash maps (a, b) and (a - 1, b + 31) together; the mixed hash must not.
        Set<Integer> codes = new HashSet<>();
        for (long a = 0; a < 300; a++) {
            for (long b = 0; b < 300; b++) {
                codes.add(Tuple.of(a, b).hashCode());
            }
        }
        assertThat(codes.size()).isGreaterThan(89_900);
    }

    @Test
    void hashCodeIsFixedAcrossJvms() {
        // Flink assigns key groups from hashCode(): it must not depend on the JVM or the run, and a
        // change of these values makes savepoints of earlier versions unreadable (keys move groups).
        assertThat(Tuple.of(1L, "a").hashCode()).isEqualTo(984736611);
        assertThat(Tuple.EMPTY.hashCode()).isEqualTo(-340344280);
    }

    @Test
    void javaSerializationRoundTrips() throws Exception {
        Tuple t = Tuple.of(1L, "x", 2.5, true, 7, "six");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(t);
            out.writeObject(Tuple.of(3L));
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).isEqualTo(t);
            assertThat(in.readObject()).isEqualTo(Tuple.of(3L));
        }
    }
}
