package io.flinkivm.bench.soak;

import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Constant;
import io.flinkivm.core.query.Term;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.query.Variable;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.examples.jobs.Draws;
import io.flinkivm.examples.jobs.InsertGenerator;
import io.flinkivm.examples.jobs.KeyDistribution;
import io.flinkivm.flink.types.InputRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A generated insert stream for any query: each insert picks one of the query's relations uniformly and
 * draws each value from the domain of the variable at that position (in the relation's first atom).
 * A free variable has {@code max(5, n / 200)} values, so the state and the result grow with the stream,
 * and follows the distribution (uniform or Zipf). The {@link Domain} says which of those values insert i
 * may draw: all of them, the first {@code max(5, ⌈(i + 1) / 200⌉)} (growing), or the last {@value
 * #LIVE_VALUES} of those (sliding). A bound variable shared by several atoms has {@value
 * #SHARED_BOUND_DOMAIN} values (a bounded fan-out); any other variable has {@value #LOCAL_DOMAIN}. A
 * constant in the atom is matched by half of the values at its position. Payloads are small values of
 * the semiring (naturals 1-3, tropical 0-9, ...). Insert i is the same wherever and however often it is
 * made.
 *
 * <p>With an {@link EventClock} every relation is windowed on its rows' last column: the atoms end with
 * {@code window_start} and {@code window_end}, the rows have two columns less, and the last one is the
 * insert's event time in epoch milliseconds. Inserts then happen in the clock's logical order, which
 * also orders the domains.
 */
public final class SoakStream<T> extends InsertGenerator<T> {
    private static final long serialVersionUID = 1L;

    /** Values of a bound variable that occurs in two or more atoms. */
    public static final int SHARED_BOUND_DOMAIN = 8;
    /** Values of a variable that occurs in one atom only. */
    public static final int LOCAL_DOMAIN = 50;
    /** Zipf exponent of {@code --distribution zipf}. */
    public static final double ZIPF_EXPONENT = 1.1;
    /** Values of a free variable that a sliding domain offers an insert: the newest ones. */
    public static final int LIVE_VALUES = 10_000;

    /** Which values of a free variable insert i may draw. */
    public enum Domain {
        /** All {@code max(5, n / 200)} values from the first insert on. */
        FIXED,
        /**
         * The first {@code max(5, ⌈(i + 1) / 200⌉)}: new keys keep arriving at a steady rate and the chance
         * that an insert joins is the same all along the stream, so the work per insert is stationary;
         * with the fixed domain, the first inserts mostly find nothing to join with and the share of
         * inserts whose delta reaches the root views rises as the views fill.
         */
        GROWING,
        /**
         * The newest {@value #LIVE_VALUES} of the growing domain's: keys arrive as in the growing domain
         * and each is drawn for a while only, as auctions take bids while they run. The keys a stretch of
         * the stream draws stay as many, but all of them, and a view that keeps every key, grow.
         */
        SLIDING
    }

    private final long count;
    private final long seed;
    private final Semiring<T> semiring;
    private final String[] relations;
    /** Per relation and position: the value prefix (the variable in lower case), or null for a constant. */
    private final String[][] prefixes;

    private final KeyDistribution[][] domains;
    /** Per relation and position: whether a growing domain applies (free variables when growing). */
    private final boolean[][] grows;

    private final int finalDomain;
    private final Domain domain;
    /** The windows' event time, or null if the relations are not windowed. */
    private final EventClock clock;

    private final String[][] constants;
    private final String[] payloadTexts;
    private transient List<T> payloads;

    /**
     * @param query the query whose relations the stream fills
     * @param semiring the payloads' semiring
     * @param count number of inserts, at least 1
     * @param zipf whether free variables follow a Zipf distribution (exponent {@value #ZIPF_EXPONENT})
     * @param seed the same seed gives the same stream
     */
    public SoakStream(ConjunctiveQuery query, Semiring<T> semiring, long count, boolean zipf, long seed) {
        this(query, semiring, count, zipf, false, seed);
    }

    /**
     * @param growing whether the free variables' domain grows with the stream (uniform draws only)
     * @throws IllegalArgumentException if {@code growing} and {@code zipf}
     */
    public SoakStream(
            ConjunctiveQuery query, Semiring<T> semiring, long count, boolean zipf, boolean growing, long seed) {
        this(query, semiring, count, zipf, growing ? Domain.GROWING : Domain.FIXED, null, seed);
    }

    /**
     * @param domain which values of a free variable an insert may draw (growing and sliding: uniform only)
     * @param clock the event time of every relation's rows (its last column), or null for no windows
     * @throws IllegalArgumentException if a growing or sliding domain is to be Zipf
     */
    public SoakStream(
            ConjunctiveQuery query,
            Semiring<T> semiring,
            long count,
            boolean zipf,
            Domain domain,
            EventClock clock,
            long seed) {
        if (domain != Domain.FIXED && zipf) {
            throw new IllegalArgumentException(
                    "a " + domain.name().toLowerCase(Locale.ROOT) + " domain is drawn uniformly, not Zipf");
        }
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1, got " + count);
        }
        this.domain = domain;
        this.clock = clock;
        this.count = count;
        this.seed = seed;
        this.semiring = semiring;
        List<String> names = query.relations();
        this.relations = names.toArray(new String[0]);
        this.prefixes = new String[relations.length][];
        this.domains = new KeyDistribution[relations.length][];
        this.constants = new String[relations.length][];
        this.grows = new boolean[relations.length][];
        this.finalDomain = (int) Math.max(5, Math.min(Integer.MAX_VALUE, count / 200));
        for (int r = 0; r < relations.length; r++) {
            Atom atom = query.atomsOfRelation(relations[r]).get(0);
            // A windowed row lacks the atom's window_start and window_end; its last column is the time.
            int arity = clock == null ? atom.arity() : atom.arity() - 2;
            prefixes[r] = new String[arity];
            domains[r] = new KeyDistribution[arity];
            constants[r] = new String[arity];
            grows[r] = new boolean[arity];
            for (int j = 0; j < arity; j++) {
                Term t = atom.terms().get(j);
                if (t instanceof Constant c) {
                    constants[r][j] = c.text();
                    domains[r][j] = new KeyDistribution(2, 0);
                } else {
                    String v = ((Variable) t).name();
                    prefixes[r][j] = v.toLowerCase(Locale.ROOT);
                    if (query.isFree(v)) {
                        domains[r][j] = new KeyDistribution(finalDomain, zipf ? ZIPF_EXPONENT : 0);
                        grows[r][j] = domain != Domain.FIXED;
                    } else if (query.atomsOf(v).cardinality() >= 2) {
                        domains[r][j] = new KeyDistribution(SHARED_BOUND_DOMAIN, 0);
                    } else {
                        domains[r][j] = new KeyDistribution(LOCAL_DOMAIN, 0);
                    }
                }
            }
        }
        this.payloadTexts = payloadTexts(semiring);
        for (String p : payloadTexts) {
            semiring.parse(p); // fail now, not inside the job
        }
    }

    /** Small payloads of the semiring, by its name; its one for a semiring this class does not know. */
    static <P> String[] payloadTexts(Semiring<P> s) {
        String name = s.name();
        if (name.equals("natural") || name.equals("provenance")) {
            return new String[] {"1", "2", "3"};
        }
        if (name.equals("min-plus") || name.equals("max-plus")) {
            return new String[] {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};
        }
        if (name.equals("viterbi")) {
            return new String[] {"1", "0.5", "0.25"};
        }
        if (name.startsWith("covariance:")) {
            int m = Integer.parseInt(name.substring("covariance:".length()));
            String[] texts = new String[3];
            for (int k = 0; k < 3; k++) {
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < m; i++) {
                    sb.append(i == 0 ? "" : " ").append((k + i) % 3);
                }
                texts[k] = sb.toString();
            }
            return texts;
        }
        return new String[] {s.format(s.one())};
    }

    /** The size of a growing domain at insert {@code index}: {@code max(5, ⌈(index + 1) / 200⌉)}, at most the final one. */
    int domainAt(long index) {
        return (int) Math.min(finalDomain, Math.max(5, (index + 200) / 200));
    }

    @Override
    public long count() {
        return count;
    }

    /** The clock of a windowed stream, or null. */
    public EventClock clock() {
        return clock;
    }

    @Override
    public InputRecord<T> record(long index) {
        return clock == null ? recordAt(index) : recordAt(clock.logical(index));
    }

    /**
     * The insert at logical position {@code position}: the same as {@link #record} of that index without
     * a clock; with one, the inserts in the order they happen (all of them, as {@code position} goes from
     * 0 to {@link #count()} - 1).
     */
    public InputRecord<T> recordAt(long position) {
        List<T> p = payloads;
        if (p == null) {
            p = new ArrayList<>();
            for (String text : payloadTexts) {
                p.add(semiring.parse(text));
            }
            payloads = p;
        }
        Draws d = new Draws(seed, position);
        int r = d.nextInt(relations.length);
        int arity = prefixes[r].length;
        Object[] values = new Object[arity];
        int timed = clock == null ? -1 : arity - 1;
        for (int j = 0; j < arity; j++) {
            if (j == timed) {
                values[j] = clock.millis(position, d);
                continue;
            }
            int rank = grows[r][j] ? draw(d, domainAt(position)) : d.next(domains[r][j]);
            values[j] = prefixes[r][j] == null
                    ? (rank == 0 ? constants[r][j] : constants[r][j] + "~")
                    : prefixes[r][j] + (rank + 1);
        }
        T payload = p.get(d.nextInt(p.size()));
        return InputRecord.insert(relations[r], Tuple.wrap(values), payload, "insert " + position);
    }

    /** A rank of the first {@code top} values: any (growing) or one of the newest {@value #LIVE_VALUES} (sliding). */
    private int draw(Draws d, int top) {
        if (domain == Domain.SLIDING && top > LIVE_VALUES) {
            return top - LIVE_VALUES + d.nextInt(LIVE_VALUES);
        }
        return d.nextInt(top);
    }
}
