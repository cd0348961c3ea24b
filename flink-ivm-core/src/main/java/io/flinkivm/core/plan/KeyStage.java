package io.flinkivm.core.plan;

import io.flinkivm.core.query.ConjunctiveQuery;
import java.io.Serializable;
import org.apache.flink.annotation.Internal;

/**
 * A key stage: the rows of {@code key}'s relation under their key values. Copy 0 receives the
 * relation's rows and checks the key; copy c > 0 holds the same rows, fed by copy c - 1 with each row
 * it stores, for a row whose lookups meet the relation's key c + 1 times (two aliases of one dimension
 * table, as TPC-H Q7's two nations), since a row passes each stage at most once.
 *
 * @param key the key whose rows the stage keeps
 * @param copy 0 for the stage that receives the relation's rows, else which copy of it
 */
@Internal
public record KeyStage(ConjunctiveQuery.Key key, int copy) implements Serializable {
    public KeyStage {
        if (copy < 0) {
            throw new IllegalArgumentException("a stage's copy counts from 0, got " + copy);
        }
    }

    /** The stage that receives {@code key}'s relation's rows. */
    public static KeyStage of(ConjunctiveQuery.Key key) {
        return new KeyStage(key, 0);
    }

    public String relation() {
        return key.relation();
    }
}
