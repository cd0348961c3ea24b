package io.flinkivm.examples.jobs;

import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Ordering and picking result rows for display. */
public final class Rows {
    private Rows() {}

    /** Orders tuples value by value; two strings compare with runs of digits as numbers (a2 before a10). */
    public static final Comparator<Tuple> NATURAL_ORDER = Rows::compareNaturally;

    /** The first {@code limit} rows of {@code result} in {@code order}. */
    public static <T> List<ResultTuple<T>> first(Map<Tuple, T> result, Comparator<ResultTuple<T>> order, int limit) {
        List<ResultTuple<T>> all = new ArrayList<>(result.size());
        for (Map.Entry<Tuple, T> e : result.entrySet()) {
            all.add(new ResultTuple<>(e.getKey(), e.getValue()));
        }
        all.sort(order);
        return all.subList(0, Math.min(limit, all.size()));
    }

    /** {@code Q(a1, c2) = 180}. */
    public static String format(String head, Tuple t, String payload) {
        StringBuilder sb = new StringBuilder(head).append('(');
        for (int i = 0; i < t.arity(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(t.get(i));
        }
        return sb.append(") = ").append(payload).toString();
    }

    private static int compareNaturally(Tuple a, Tuple b) {
        if (a.arity() != b.arity()) {
            return Integer.compare(a.arity(), b.arity());
        }
        for (int i = 0; i < a.arity(); i++) {
            Object x = a.get(i);
            Object y = b.get(i);
            int c = x instanceof String s && y instanceof String t
                    ? compareNaturally(s, t)
                    : Tuple.of(x).compareTo(Tuple.of(y));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    static int compareNaturally(String a, String b) {
        int c = compareDigitRuns(a, b);
        return c != 0 ? c : a.compareTo(b);
    }

    private static int compareDigitRuns(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            char x = a.charAt(i);
            char y = b.charAt(j);
            if (Character.isDigit(x) && Character.isDigit(y)) {
                int si = i;
                int sj = j;
                while (i < a.length() && Character.isDigit(a.charAt(i))) {
                    i++;
                }
                while (j < b.length() && Character.isDigit(b.charAt(j))) {
                    j++;
                }
                String da = strip(a.substring(si, i));
                String db = strip(b.substring(sj, j));
                int c = da.length() != db.length() ? Integer.compare(da.length(), db.length()) : da.compareTo(db);
                if (c != 0) {
                    return c;
                }
            } else {
                if (x != y) {
                    return Character.compare(x, y);
                }
                i++;
                j++;
            }
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    private static String strip(String digits) {
        int k = 0;
        while (k < digits.length() - 1 && digits.charAt(k) == '0') {
            k++;
        }
        return digits.substring(k);
    }

    /** All rows of an iterator, as a map (for tests and small results). */
    public static <T> Map<Tuple, T> toMap(Iterator<ResultTuple<T>> it) {
        Map<Tuple, T> out = new java.util.HashMap<>();
        while (it.hasNext()) {
            ResultTuple<T> r = it.next();
            out.put(r.tuple(), r.payload());
        }
        return out;
    }
}
