package io.flinkivm.core.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClassificationTest {

    @Test
    void describeStartsWithASummaryLine() {
        Classification c = new Classification(
                Verdict.yes(),
                Verdict.no("free X and bound Y: at(X) ⊊ at(Y)"),
                Verdict.no("bound Y and free X share atom S(X,Y)"),
                Verdict.yes(),
                Verdict.yes());
        assertThat(c.describe())
                .isEqualTo(String.join(
                        "\n",
                        "the query is not p-hierarchical, not q-hierarchical, α-acyclic, free-connex",
                        "hierarchical: yes",
                        "q-hierarchical: no — free X and bound Y: at(X) ⊊ at(Y)",
                        "p-hierarchical: no — bound Y and free X share atom S(X,Y)",
                        "α-acyclic: yes",
                        "free-connex: yes"));
    }
}
