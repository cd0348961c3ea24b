package io.flinkivm.core.analysis;

import java.io.Serializable;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The classes a conjunctive query belongs to (Sec. 2–3 of the paper), each with a {@link Verdict}.
 *
 * @param hierarchical at(X) and at(Y) are disjoint or nested for all variables X, Y
 * @param qHierarchical hierarchical, and a free variable is dominated only by free variables (Def. 7)
 * @param pHierarchical bound variables nest among themselves and inside free ones (Def. 8)
 * @param alphaAcyclic the GYO reduction removes all atoms but one
 * @param freeConnex acyclic, and still acyclic with an extra atom over the free variables (Def. 6)
 * @param subject how {@link #describe()} names the query, e.g. {@code Q(A,C)}
 */
@PublicEvolving
public record Classification(
        Verdict hierarchical,
        Verdict qHierarchical,
        Verdict pHierarchical,
        Verdict alphaAcyclic,
        Verdict freeConnex,
        String subject)
        implements Serializable {

    public Classification {
        Objects.requireNonNull(hierarchical, "hierarchical");
        Objects.requireNonNull(qHierarchical, "qHierarchical");
        Objects.requireNonNull(pHierarchical, "pHierarchical");
        Objects.requireNonNull(alphaAcyclic, "alphaAcyclic");
        Objects.requireNonNull(freeConnex, "freeConnex");
        Objects.requireNonNull(subject, "subject");
    }

    /** A classification of a query that {@link #describe()} calls "the query". */
    public Classification(
            Verdict hierarchical,
            Verdict qHierarchical,
            Verdict pHierarchical,
            Verdict alphaAcyclic,
            Verdict freeConnex) {
        this(hierarchical, qHierarchical, pHierarchical, alphaAcyclic, freeConnex, "the query");
    }

    /** The classes in one line, e.g. "p-hierarchical, not q-hierarchical, α-acyclic, free-connex". */
    public String summary() {
        return String.join(
                ", ",
                name("p-hierarchical", pHierarchical),
                name("q-hierarchical", qHierarchical),
                name("α-acyclic", alphaAcyclic),
                name("free-connex", freeConnex));
    }

    /**
     * A summary line ("Q(A,C) is p-hierarchical, not q-hierarchical, α-acyclic, free-connex") followed
     * by one line per class, e.g. "q-hierarchical: no — " and the witness.
     */
    public String describe() {
        return subject + " is " + summary() + "\n"
                + "hierarchical: " + hierarchical + "\n"
                + "q-hierarchical: " + qHierarchical + "\n"
                + "p-hierarchical: " + pHierarchical + "\n"
                + "α-acyclic: " + alphaAcyclic + "\n"
                + "free-connex: " + freeConnex;
    }

    private static String name(String property, Verdict verdict) {
        return verdict.holds() ? property : "not " + property;
    }
}
