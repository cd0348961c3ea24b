package io.flinkivm.core.analysis;

import java.io.Serializable;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Whether a query has a property and, if not, a witness: a short text in the paper's terms that names
 * the variables and atoms violating it.
 *
 * @param holds whether the property holds
 * @param witness why it does not hold; {@code null} exactly when it holds
 */
@PublicEvolving
public record Verdict(boolean holds, String witness) implements Serializable {
    private static final Verdict YES = new Verdict(true, null);

    public Verdict {
        if (holds && witness != null) {
            throw new IllegalArgumentException("a verdict that holds has no witness, got: " + witness);
        }
        if (!holds && (witness == null || witness.isBlank())) {
            throw new IllegalArgumentException("a verdict that does not hold needs a witness");
        }
    }

    /** The property holds. */
    public static Verdict yes() {
        return YES;
    }

    /** The property does not hold, because of {@code witness}. */
    public static Verdict no(String witness) {
        return new Verdict(false, witness);
    }

    /** "yes", or "no — " followed by the witness. */
    @Override
    public String toString() {
        return holds ? "yes" : "no — " + witness;
    }
}
