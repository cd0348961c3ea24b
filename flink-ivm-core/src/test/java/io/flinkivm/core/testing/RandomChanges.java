package io.flinkivm.core.testing;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Chain;
import io.flinkivm.core.semiring.ChainComponent;
import io.flinkivm.core.semiring.CovarianceRing;
import io.flinkivm.core.semiring.CovarianceTriple;
import io.flinkivm.core.semiring.LongComponent;
import io.flinkivm.core.semiring.ProductRing;
import io.flinkivm.core.semiring.Ring;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random changes for differential tests with deletes: row payloads of the rings (an integer, a lifted
 * feature vector, a row of SQL aggregates with a count of 1), and the choice of what a delete takes
 * away from a row, so that most deletes are valid and some are not (absent rows, more than the row
 * holds). Deterministic for a given {@link Random}.
 */
public final class RandomChanges {

    private RandomChanges() {}

    /**
     * The rings the tests run over: integer, covariance-ring:2, the product ring of SUM, MIN, MAX, and that
     * of MIN over strings and MAX over dates.
     */
    public static final List<String> RINGS =
            List.of("integer", "covariance-ring:2", "product(SUM,MIN,MAX)", "product(MIN STRING,MAX DATE)");

    /** The ring {@link #RINGS} names. */
    public static Ring<?> ring(String name) {
        if (name.equals("product(SUM,MIN,MAX)")) {
            return ProductRing.of(List.of(LongComponent.INTEGER, LongComponent.MIN, LongComponent.MAX));
        }
        if (name.equals("product(MIN STRING,MAX DATE)")) {
            return ProductRing.of(List.of(
                    ChainComponent.min(Chain.of(Chain.Kind.STRING, "STRING")),
                    ChainComponent.max(Chain.of(Chain.Kind.DATE, "DATE"))));
        }
        return (Ring<?>) TestSemirings.byName(name);
    }

    /**
     * The payload of one inserted row: an integer in [-2, 3] (zero one time in six: a no-op), the lift of
     * an integer vector (one time in eight its inverse), or a row of SUM, MIN and MAX with count 1 (a
     * value missing one time in eight).
     */
    @SuppressWarnings("unchecked")
    public static <T> T rowPayload(Ring<T> ring, Random r) {
        Object value;
        if (ring instanceof ProductRing p && p.hasObjects()) {
            // A name, or none (the one of MIN, ⊥: the table has no name); a date, NULL (the zero of MAX, ⊥)
            // or none (the one of MAX, ⊤).
            String name = r.nextInt(8) == 0 ? null : "n" + r.nextInt(12);
            int roll = r.nextInt(8);
            long date = roll == 0 ? Chain.BOTTOM : roll == 1 ? Chain.TOP : 19_000 + r.nextInt(30);
            value = p.payload(
                    new long[] {1, name == null ? Chain.BOTTOM : Chain.VALUE, date}, new Object[] {null, name, null});
        } else if (ring instanceof ProductRing p) {
            long min = r.nextInt(8) == 0 ? Long.MAX_VALUE : r.nextInt(41) - 10;
            long max = r.nextInt(8) == 0 ? Long.MIN_VALUE : r.nextInt(41) - 10;
            value = p.payload(1, r.nextInt(61) - 20, min, max);
        } else if (ring instanceof CovarianceRing c) {
            double[] x = new double[c.dimension()];
            for (int i = 0; i < x.length; i++) {
                x[i] = r.nextInt(7) - 3;
            }
            CovarianceTriple lift = CovarianceTriple.lift(x);
            value = r.nextInt(8) == 0 ? lift.negate() : lift;
        } else {
            value = (long) (r.nextInt(6) - 2);
        }
        return (T) value;
    }

    /**
     * What a delete of a row takes away: usually all of {@code present} or one of the payloads inserted
     * into it ({@code inserted}, which may be more than is left), else a fresh row payload.
     */
    public static <T> T deletePayload(Ring<T> ring, T present, List<T> inserted, Random r) {
        int roll = r.nextInt(10);
        if (roll < 5 || inserted.isEmpty()) {
            return present;
        }
        if (roll < 9) {
            return inserted.get(r.nextInt(inserted.size()));
        }
        return rowPayload(ring, r);
    }

    /** A live row of {@code relation}, or null if it has none. */
    public static <T> Tuple liveRow(Map<Tuple, T> rows, Random r) {
        if (rows == null || rows.isEmpty()) {
            return null;
        }
        List<Tuple> tuples = new ArrayList<>(rows.keySet());
        tuples.sort(null);
        return tuples.get(r.nextInt(tuples.size()));
    }

    /** A tuple of {@code relation} that is not among its live rows (an absent row), or null if none is found. */
    public static Tuple absentRow(
            ConjunctiveQuery q, String relation, Map<Tuple, ?> rows, RandomStreams.Domain domain, Random r) {
        for (int attempt = 0; attempt < 20; attempt++) {
            Tuple t = domain.tuple(r, q.arityOf(relation));
            if (rows == null || !rows.containsKey(t)) {
                return t;
            }
        }
        return null;
    }
}
