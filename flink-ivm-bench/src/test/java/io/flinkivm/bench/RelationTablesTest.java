package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

class RelationTablesTest {

    private static InsertStream stream(String[] relations, Tuple[] tuples, Long[] payloads, ChangeKind[] kinds) {
        return new InsertStream(relations, tuples, payloads, kinds, tuples.length, Distribution.UNIFORM, 1);
    }

    @Test
    void eachRecordIsItsRelationsBinaryRowWithItsKind() {
        InsertStream s = stream(
                new String[] {"S", "R", "S"},
                new Tuple[] {Tuple.of(1L, "x"), Tuple.of(7L), Tuple.of(1L, "x")},
                new Long[] {3L, 1L, 3L},
                new ChangeKind[] {ChangeKind.INSERT, ChangeKind.INSERT, ChangeKind.DELETE});

        RelationTables t = RelationTables.of(QueryParser.parse("Q(A) :- R(A), S(A,B)"), s, Map.of("S", List.of(0)));

        assertThat(t.tables()).extracting(g -> g.name()).containsExactly("R", "S");
        assertThat(t.tables().get(1).schemaText())
                .isEqualTo("`S`(c1 BIGINT NOT NULL, c2 STRING, p BIGINT, PRIMARY KEY (c1) NOT ENFORCED)");
        assertThat(t.tables().get(0).schemaText()).isEqualTo("`R`(c1 BIGINT, p BIGINT)");
        assertThat(t.tableOf()).containsExactly(1, 0, 1);
        RowData first = t.rows().get(0);
        assertThat(first).isInstanceOf(BinaryRowData.class);
        assertThat(first.getLong(0)).isEqualTo(1L);
        assertThat(first.getString(1).toString()).isEqualTo("x");
        assertThat(first.getLong(2)).isEqualTo(3L);
        assertThat(first.getRowKind()).isEqualTo(RowKind.INSERT);
        assertThat(t.rows().get(2).getRowKind()).isEqualTo(RowKind.DELETE);
        assertThat(t.rows().get(1).getLong(1)).isEqualTo(1L);
        assertThat(t.isText("S", 1)).isTrue();
        assertThat(t.isText("S", 0)).isFalse();
    }

    @Test
    void theTablesOfAStreamAreBuiltOnceForIt() {
        Workload w = new TpchWorkload();
        InsertStream s = w.generate(2_000, Distribution.TPCH, 1);

        RelationTables first = RelationTables.of(w, s);

        assertThat(RelationTables.of(w, s)).isSameAs(first);
        assertThat(RelationTables.of(w, w.generate(2_000, Distribution.TPCH, 1)))
                .isNotSameAs(first);
        RelationTables.release();
        assertThat(first.tables())
                .extracting(g -> g.name() + g.primaryKey())
                .containsExactly("Customer[c1]", "Orders[c1]", "Lineitem[c1, c2]");
    }

    @Test
    void valuesOtherThanLongsAndStringsAreRefused() {
        InsertStream s = stream(
                new String[] {"R"}, new Tuple[] {Tuple.of(1.5)}, new Long[] {1L}, new ChangeKind[] {ChangeKind.INSERT});

        assertThatThrownBy(() -> RelationTables.of(QueryParser.parse("Q(A) :- R(A)"), s, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Long and String values only, got 1.5");
    }

    @Test
    void aColumnWithNumbersAndTextIsRefused() {
        InsertStream s = stream(
                new String[] {"R", "R"},
                new Tuple[] {Tuple.of(1L), Tuple.of("a")},
                new Long[] {1L, 1L},
                new ChangeKind[] {ChangeKind.INSERT, ChangeKind.INSERT});

        assertThatThrownBy(() -> RelationTables.of(QueryParser.parse("Q(A) :- R(A)"), s, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column 1 of R holds both numbers and text");
    }

    @Test
    void aKeyOutsideTheRelationIsRefused() {
        InsertStream s = stream(
                new String[] {"R"}, new Tuple[] {Tuple.of(1L)}, new Long[] {1L}, new ChangeKind[] {ChangeKind.INSERT});

        assertThatThrownBy(() -> RelationTables.of(QueryParser.parse("Q(A) :- R(A)"), s, Map.of("R", List.of(1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the key of R names column 1 of 1");
    }
}
