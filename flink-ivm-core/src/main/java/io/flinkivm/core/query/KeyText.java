package io.flinkivm.core.query;

import java.util.ArrayList;
import java.util.List;

/**
 * How a key is written in the query text: {@code orders(ok)} names the key's columns by the
 * variables an atom of {@code orders} has there, {@code orders(#0)} by column (from 0). The parser
 * resolves names, {@link ConjunctiveQuery#toString()} renders a key so that it resolves back.
 */
final class KeyText {
    private KeyText() {}

    /**
     * The columns of {@code relation} that {@code names} stand for: their positions in the first atom
     * of the relation that has each of them exactly once (every such atom must agree).
     *
     * @throws InvalidQueryException (without a position) if no atom has them, or atoms disagree
     */
    static List<Integer> resolve(List<Atom> body, String relation, List<String> names) {
        List<Atom> atoms = new ArrayList<>();
        for (Atom a : body) {
            if (a.relation().equals(relation)) {
                atoms.add(a);
            }
        }
        List<Integer> found = null;
        Atom first = null;
        for (Atom a : atoms) {
            List<Integer> positions = positions(a, names);
            if (positions == null) {
                continue;
            }
            if (found == null) {
                found = positions;
                first = a;
            } else if (!found.equals(positions)) {
                throw new InvalidQueryException("key " + relation + "(" + String.join(",", names)
                        + ") is ambiguous: it is column" + plural(found) + " " + join(found) + " of " + first
                        + " but column" + plural(positions) + " " + join(positions) + " of " + a
                        + "; name the columns instead, e.g. " + relation + "(" + columns(found) + ")");
            }
        }
        if (found != null) {
            return found;
        }
        for (String n : names) {
            boolean somewhere = false;
            for (Atom a : atoms) {
                somewhere |= a.variables().contains(n);
            }
            if (!somewhere) {
                throw new InvalidQueryException("key " + relation + "(" + String.join(",", names) + "): variable " + n
                        + " occurs in no atom of " + relation + "; a key names columns by the variables of an atom of"
                        + " its relation, or by position (#0 is the first column)");
            }
        }
        throw new InvalidQueryException("key " + relation + "(" + String.join(",", names) + "): no atom of " + relation
                + " has each of " + String.join(", ", names) + " exactly once; name the columns by position instead"
                + " (#0 is the first column)");
    }

    /** The positions of {@code names} in {@code a}, each occurring exactly once, or null. */
    private static List<Integer> positions(Atom a, List<String> names) {
        List<Integer> out = new ArrayList<>();
        for (String n : names) {
            int at = -1;
            for (int p = 0; p < a.terms().size(); p++) {
                if (a.terms().get(p) instanceof Variable v && v.name().equals(n)) {
                    if (at >= 0) {
                        return null;
                    }
                    at = p;
                }
            }
            if (at < 0) {
                return null;
            }
            out.add(at);
        }
        return out;
    }

    /** The key as written in a query: by the variables of an atom where they resolve back to its columns, else by column. */
    static String render(List<Atom> body, ConjunctiveQuery.Key key) {
        for (Atom a : body) {
            if (!a.relation().equals(key.relation())) {
                continue;
            }
            List<String> names = new ArrayList<>();
            for (int p : key.positions()) {
                if (a.terms().get(p) instanceof Variable v) {
                    names.add(v.name());
                }
            }
            if (names.size() != key.positions().size()
                    || names.stream().distinct().count() != names.size()) {
                continue;
            }
            try {
                List<Integer> back = new ArrayList<>(resolve(body, key.relation(), names));
                back.sort(null);
                if (back.equals(key.positions())) {
                    return key.relation() + "(" + String.join(",", names) + ")";
                }
            } catch (InvalidQueryException e) {
                // Ambiguous by name: by column below.
            }
            break;
        }
        return key.relation() + "(" + columns(key.positions()) + ")";
    }

    private static String columns(List<Integer> positions) {
        List<String> out = new ArrayList<>();
        for (int p : positions) {
            out.add("#" + p);
        }
        return String.join(",", out);
    }

    private static String join(List<Integer> positions) {
        List<String> out = new ArrayList<>();
        for (int p : positions) {
            out.add(String.valueOf(p));
        }
        return String.join(", ", out);
    }

    private static String plural(List<Integer> positions) {
        return positions.size() == 1 ? "" : "s";
    }
}
