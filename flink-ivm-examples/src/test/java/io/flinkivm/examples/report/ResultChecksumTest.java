package io.flinkivm.examples.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.ProvenanceSemiring;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResultChecksumTest {

    @Test
    void isTheSumOfTheFnv1aHashesOfTheRowsCsvLines() {
        // Published FNV-1a 64 test vectors.
        assertThat(ResultChecksum.hash("")).isEqualTo(0xcbf29ce484222325L);
        assertThat(ResultChecksum.hash("a")).isEqualTo(0xaf63dc4c8601ec8cL);
        ResultChecksum c = new ResultChecksum();
        c.add(Tuple.of("a1", "c1"), "6");
        c.add(Tuple.of("x,y", "c\"2"), "1");
        assertThat(c.rows()).isEqualTo(2);
        assertThat(c.value()).isEqualTo(ResultChecksum.hash("a1,c1,6") + ResultChecksum.hash("\"x,y\",\"c\"\"2\",1"));
    }

    @Test
    void doesNotDependOnTheOrderOfTheRows() {
        ResultChecksum one = new ResultChecksum();
        ResultChecksum other = new ResultChecksum();
        for (int i = 0; i < 100; i++) {
            one.add(Tuple.of("a" + i), Integer.toString(i));
            other.add(Tuple.of("a" + (99 - i)), Integer.toString(99 - i));
        }
        assertThat(one.value()).isEqualTo(other.value());
        ResultChecksum changed = new ResultChecksum();
        for (int i = 0; i < 100; i++) {
            changed.add(Tuple.of("a" + i), Integer.toString(i == 50 ? 51 : i));
        }
        assertThat(changed.value()).isNotEqualTo(one.value());
    }

    @Test
    void rowFormatsGiveTheResultFilesColumns() {
        RowFormat<Long> natural = RowFormat.of(NaturalSemiring.INSTANCE);
        assertThat(natural.fields(Tuple.of("a1", 7), 12L)).isEqualTo(List.of("a1", "7", "12"));
        ProvenanceSemiring k = ProvenanceSemiring.INSTANCE;
        assertThat(RowFormat.of(k).fields(Tuple.of("p"), k.parse("2*x*y")))
                .containsExactly("p", k.format(k.parse("2*x*y")));
    }
}
