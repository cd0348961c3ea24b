package io.flinkivm.examples.queries;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.sql.translate.SqlSchemas;
import org.junit.jupiter.api.Test;

class PublishedQueryTest {

    @Test
    void aQueryIsItsTextAfterTheCommentsAndItsSchemaTheCommentedTables() {
        PublishedQuery q3 = PublishedQuery.load("tpch-q3");
        assertThat(q3.sql())
                .startsWith("select\n\tl_orderkey,")
                .endsWith("\to_shippriority")
                .doesNotContain("--");
        assertThat(q3.tables()).containsExactly("customer", "orders", "lineitem");
        assertThat(SqlSchemas.parse(q3.schema())).containsOnlyKeys("customer", "orders", "lineitem");
        for (String name : PublishedQuery.names()) {
            PublishedQuery q = PublishedQuery.load(name);
            assertThat(q.sql().toLowerCase(java.util.Locale.ROOT))
                    .as(name)
                    .startsWith("select")
                    .doesNotContain("order by", "limit", "insert into", ";");
            assertThat(SqlSchemas.parse(q.schema()).keySet()).as(name).containsExactlyElementsOf(q.tables());
        }
    }

    @Test
    void anUnknownNameSaysWhichThereAre() {
        assertThatThrownBy(() -> PublishedQuery.load("tpch-q2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no published query tpch-q2; the queries are tpch-q1, tpch-q3, tpch-q5, tpch-q9,"
                        + " tpch-q10, tpch-q12, nexmark-q3, nexmark-q15, nexmark-q16, nexmark-q17, nexmark-q20");
        assertThatThrownBy(() -> PublishedQuery.parse("x", "select 1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no '-- schema:' comment");
    }
}
