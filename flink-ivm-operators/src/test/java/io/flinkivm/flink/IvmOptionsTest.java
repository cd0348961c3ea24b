package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.InvalidQueryException;
import io.flinkivm.core.query.QueryParser;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IvmOptionsTest {
    static final ConjunctiveQuery Q = QueryParser.parse("Q(seg) :- customer(ck,seg), orders(ok,ck), lineitem(ok)");

    @Test
    void relationKeysAreMergedWithTheQuerysOwn() {
        IvmOptions o = IvmOptions.defaults().withRelationKey("orders", 0).withRelationKey("customer", 0);
        assertThat(o.relationKeys()).isEqualTo(Map.of("orders", List.of(0), "customer", List.of(0)));
        assertThat(o.withRelationKey("orders", 0)).isSameAs(o);
        assertThat(o.withRelationKeys(Q).keys())
                .containsExactly(ConjunctiveQuery.Key.of("customer", 0), ConjunctiveQuery.Key.of("orders", 0));
        ConjunctiveQuery own = QueryParser.parse(Q + " KEY orders(ok)");
        assertThat(o.withRelationKeys(own).keys()).hasSize(2);
        assertThat(IvmOptions.defaults().withRelationKeys(own)).isSameAs(own);
        assertThat(IvmOptions.defaults().withRelationKey("R", 2, 0).relationKeys())
                .containsEntry("R", List.of(0, 2));
    }

    @Test
    void conflictingKeysAreErrors() {
        assertThatThrownBy(
                        () -> IvmOptions.defaults().withRelationKey("orders", 0).withRelationKey("orders", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("relation orders already has the key columns [0] in these options, not [1]");
        assertThatThrownBy(() -> IvmOptions.defaults()
                        .withRelationKey("orders", 1)
                        .withRelationKeys(QueryParser.parse(Q + " KEY orders(ok)")))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining(
                        "relation orders has the key orders(ok) (columns [0]) in the query and columns [1]"
                                + " in IvmOptions.withRelationKey");
        assertThatThrownBy(
                        () -> IvmOptions.defaults().withRelationKey("part", 0).withRelationKeys(Q))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("Q uses no relation part");
        assertThatThrownBy(
                        () -> IvmOptions.defaults().withRelationKey("orders", 5).withRelationKeys(Q))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("key of orders names column 5, but orders has arity 2");
    }

    @Test
    void aStateTtlIsNoneByDefaultZeroExplicitlyOrAtLeastAMillisecond() {
        assertThat(IvmOptions.defaults().stateTtl()).isNull();
        assertThat(IvmOptions.defaults().stateTtlMillis()).isZero();
        IvmOptions hour = IvmOptions.defaults().withStateTtl(Duration.ofHours(1));
        assertThat(hour.stateTtl()).isEqualTo(Duration.ofHours(1));
        assertThat(hour.stateTtlMillis()).isEqualTo(3_600_000L);
        assertThat(hour.withSnapshotEvery(5).stateTtl()).isEqualTo(Duration.ofHours(1));
        IvmOptions never = hour.withStateTtl(Duration.ZERO);
        assertThat(never.stateTtl()).isEqualTo(Duration.ZERO);
        assertThat(never.stateTtlMillis()).isZero();
        assertThatThrownBy(() -> IvmOptions.defaults().withStateTtl(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stateTtl must be zero (no expiry) or at least one millisecond, got PT-1S");
        assertThatThrownBy(() -> IvmOptions.defaults().withStateTtl(Duration.ofNanos(10)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got PT0.00000001S");
    }
}
