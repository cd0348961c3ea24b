package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.QueryParser;
import org.junit.jupiter.api.Test;

class QueryToSqlTest {

    @Test
    void example10JoinsAlongSharedVariablesAndSumsThePayloadProduct() {
        QueryToSql t = new QueryToSql(QueryParser.parse(Example10Workload.QUERY));

        assertThat(t.joinOrder()).containsExactly(0, 1, 2, 4, 3);
        assertThat(t.select()).isEqualTo("""
                SELECT a0.c1 AS `A`, a4.c2 AS `C`, SUM(a0.p * a1.p * a2.p * a4.p * a3.p) AS payload
                FROM `R1` AS a0
                  JOIN `R2` AS a1 ON a1.c1 = a0.c1 AND a1.c2 = a0.c2 AND a1.c3 = a0.c3
                  JOIN `R3` AS a2 ON a2.c1 = a0.c1 AND a2.c2 = a0.c2
                  JOIN `R5` AS a4 ON a4.c1 = a0.c1
                  JOIN `R4` AS a3 ON a3.c1 = a4.c2
                GROUP BY a0.c1, a4.c2""");
    }

    @Test
    void repeatedVariablesSelfJoinsAndAggregates() {
        QueryToSql t = new QueryToSql(QueryParser.parse("Q() :- R(A,A), R(A,B)"));

        assertThat(t.select()).isEqualTo("""
                SELECT SUM(a0.p * a1.p) AS payload
                FROM `R` AS a0
                  JOIN `R` AS a1 ON a1.c1 = a0.c1
                WHERE a0.c2 = a0.c1""");
    }

    @Test
    void constantsBecomeFiltersOnTheirColumnsAsText() {
        QueryToSql t = new QueryToSql(
                QueryParser.parse("Revenue(O,C) :- Customer(C,N,'BUILDING'), Orders(O,C,D), Lineitem(O,L), Flag(O,3)"),
                (relation, j) -> relation.equals("Customer") && j == 2);

        assertThat(t.select())
                .contains("WHERE a0.c3 = 'BUILDING' AND CAST(a3.c2 AS STRING) = '3'")
                .contains("JOIN `Orders` AS a1 ON a1.c2 = a0.c1")
                .startsWith("SELECT a1.c1 AS `O`, a0.c1 AS `C`, SUM(a0.p * a1.p * a2.p * a3.p) AS payload");
    }

    @Test
    void columnTypesComeFromTheStream() {
        InsertStream s = new TpchWorkload().generate(2_000, Distribution.TPCH, 1);
        RelationTables tables =
                RelationTables.of(QueryParser.parse(new TpchWorkload().query()), s, new TpchWorkload().primaryKeys());
        QueryToSql t = new QueryToSql(tables);

        assertThat(tables.isText("Customer", 2)).isTrue();
        assertThat(tables.isText("Orders", 2)).as("the order date").isTrue();
        assertThat(tables.isText("Orders", 0)).isFalse();
        assertThat(t.select()).contains("WHERE a0.c3 = 'BUILDING'").doesNotContain("CAST(");
    }
}
