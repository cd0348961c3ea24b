package io.flinkivm.core.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.IntegerRing;
import io.flinkivm.core.semiring.MinPlusSemiring;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.PayloadOverflowException;
import org.junit.jupiter.api.Test;

class KDatabaseTest {

    @Test
    void insertsAddPayloadsWithPlus() {
        KDatabase<Long> db = new KDatabase<>(NaturalSemiring.INSTANCE);
        db.insert("R", Tuple.of(1L), 2L);
        db.insert("R", Tuple.of(1L), 3L);
        assertThat(db.payload("R", Tuple.of(1L))).isEqualTo(5L);

        KDatabase<Double> tropical = new KDatabase<>(MinPlusSemiring.INSTANCE);
        tropical.insert("R", Tuple.of(1L), 2.0);
        tropical.insert("R", Tuple.of(1L), 3.0);
        assertThat(tropical.payload("R", Tuple.of(1L))).isEqualTo(2.0);
    }

    @Test
    void zeroIsANoOpAndAbsentTuplesHaveZero() {
        KDatabase<Long> db = new KDatabase<>(NaturalSemiring.INSTANCE);
        db.insert("R", Tuple.of(1L), 0L);
        assertThat(db.relations()).isEmpty();
        assertThat(db.payload("R", Tuple.of(1L))).isZero();
        assertThat(db.payload("S", Tuple.EMPTY)).isZero();
    }

    @Test
    void payloadsThatCancelRemoveTheTuple() {
        KDatabase<Long> db = new KDatabase<>(IntegerRing.INSTANCE);
        db.insert("R", Tuple.of(1L), 2L);
        db.insert("R", Tuple.of(1L), -2L);
        assertThat(db.relations().get("R")).isEmpty();
    }

    @Test
    void relationsAreReadOnlyAndOverflowIsReported() {
        KDatabase<Long> db = new KDatabase<>(NaturalSemiring.INSTANCE);
        db.insert("R", Tuple.of(1L), Long.MAX_VALUE);
        assertThatThrownBy(() -> db.relations().get("R").put(Tuple.of(2L), 1L))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> db.insert("R", Tuple.of(1L), 1L)).isInstanceOf(PayloadOverflowException.class);
        assertThat(db.payload("R", Tuple.of(1L))).isEqualTo(Long.MAX_VALUE);
    }
}
