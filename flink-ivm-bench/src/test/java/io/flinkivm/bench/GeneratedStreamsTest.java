package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.Tuple;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Pins the streams the generated workloads produce: the same workload, size, distribution and seed
 * must give the same stream in every version, so that figures of different runs stay comparable.
 * The checksums were taken from the generators as they were before they shared their scaffolding.
 */
class GeneratedStreamsTest {

    /** A hash over every relation name, value and payload of the stream, in order. */
    static long checksum(InsertStream s) {
        long h = 1;
        for (int i = 0; i < s.size(); i++) {
            h = 31 * h + s.relation(i).hashCode();
            Tuple t = s.tuple(i);
            h = 31 * h + t.arity();
            for (int j = 0; j < t.arity(); j++) {
                h = 31 * h + t.get(j).hashCode();
            }
            h = 31 * h + s.payload(i).hashCode();
        }
        return h;
    }

    @ParameterizedTest(name = "{0} n={1} {2} seed={3}")
    @CsvSource({
        "ex10, 5000, UNIFORM, 42, -1668117062372392678",
        "ex10, 5000, ZIPF, 42, -1712851067618979986",
        "ex10, 777, ZIPF, 3, 3498059743551604713",
        "star, 5000, UNIFORM, 42, -3134129745571643257",
        "star, 5000, ZIPF, 42, 1060235370229866047",
        "star, 777, UNIFORM, 3, -2479761763179404140",
        "path, 5000, UNIFORM, 42, -1465451269152071596",
        "path, 5000, ZIPF, 42, -2981083420620752958",
        "path, 777, ZIPF, 3, -8985682503243173804",
    })
    void streamsAreThoseOfEarlierVersions(String name, int n, Distribution d, long seed, long expected) {
        Workload w = List.of(new Example10Workload(), new StarWorkload(), new PathWorkload()).stream()
                .filter(x -> x.name().equals(name))
                .findFirst()
                .orElseThrow();
        InsertStream s = w.generate(n, d, seed);
        assertThat(s.size()).isEqualTo(n);
        assertThat(checksum(s))
                .as("checksum of %s n=%d %s seed=%d", name, n, d, seed)
                .isEqualTo(expected);
        assertThat(checksum(w.generate(n, d, seed)))
                .as("the same arguments give the same stream")
                .isEqualTo(checksum(s));
    }

    @Test
    void theSharedScaffoldingBoxesEachValueOnceAndChecksItsArguments() {
        assertThat(GeneratedStream.keyDomain(0)).isEqualTo(1);
        assertThat(GeneratedStream.keyDomain(10)).isEqualTo(4);
        GeneratedStream g = new GeneratedStream(2, Distribution.UNIFORM, 1, 7, 3, 5);
        assertThat(g.capacity()).isEqualTo(2);
        g.add("R", new Object[] {g.value(5), g.skewedKey()}, g.payload(3));
        assertThatThrownBy(g::build).isInstanceOf(IllegalStateException.class).hasMessage("added 1 of 2 inserts");
        g.add("R", new Object[] {g.uniformKey()}, g.payload(3));
        InsertStream s = g.build();
        assertThat(s.payload(0)).isBetween(1L, 3L);
        assertThat((Long) s.tuple(0).get(0)).isBetween(0L, 4L);

        // Far past Long's own cache of -128..127: equal values are the same object, the pool's.
        InsertStream path = new PathWorkload().generate(100_000, Distribution.UNIFORM, 1);
        Map<Long, Long> seen = new HashMap<>();
        for (int i = 0; i < path.size(); i++) {
            Long v = (Long) path.tuple(i).get(0);
            assertThat(seen.computeIfAbsent(v, x -> v)).isSameAs(v);
        }
        assertThat(seen.keySet()).anyMatch(v -> v > 200);

        assertThatThrownBy(() -> new GeneratedStream(-1, Distribution.ZIPF, 1, 7, 3, 5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("n must be >= 0, got -1");
    }
}
