package io.flinkivm.core.query;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Parses the text form of a conjunctive query, for example {@code Q(A,C) :- R(A,B), S(B,C,'x').}
 *
 * <pre>
 * query    = Name '(' [ Var { ',' Var } ] ')' ':-' atom { ',' atom } [ keys ] [ '.' ]
 * atom     = Rel '(' [ term { ',' term } ] ')'
 * term     = Var | 'quoted string' | number
 * number   = [ '-' ] digit { digit } [ '.' digit { digit } ]
 * keys     = KEY key { ',' key }
 * key      = Rel '(' [ column { ',' column } ] ')'
 * column   = Var | '#' digit { digit }
 * Name, Rel, Var = ( letter | '_' ) { letter | digit | '_' }
 * </pre>
 *
 * Whitespace may appear between any two tokens. Inside a quoted string, {@code ''} stands for one
 * quote. Constants and repeated variables in an atom are selections (see {@link Atom#match}); the head
 * lists distinct variables only. The text of a numeric constant is kept as written.
 *
 * <p>{@code KEY} (in any case) declares keys ({@link ConjunctiveQuery.Key}), at most one per relation
 * of the body. A key names its columns by the variables that an atom of its relation has there, or by
 * position from 0, not both: in {@code Q(S) :- customer(K,S), orders(O,K), lineitem(O) KEY
 * customer(K), orders(O)} the key of customer is its column 0 ({@code customer(#0)}), that of orders
 * its column 0. Names resolve in the first atom of the relation that has each of them exactly once;
 * if another such atom has them at other columns, the key is ambiguous and must be written by column.
 * {@link ConjunctiveQuery#toString()} writes keys so that they parse back to the same columns.
 */
@PublicEvolving
public final class QueryParser {

    private final String text;
    private int pos;

    private QueryParser(String text) {
        this.text = text;
    }

    /**
     * Parses {@code text} into a query.
     *
     * @throws InvalidQueryException on a syntax error, with the offending position in the text, or on
     *     a semantic error found by {@link ConjunctiveQuery}'s constructor
     */
    public static ConjunctiveQuery parse(String text) {
        Objects.requireNonNull(text, "query text");
        return new QueryParser(text).query();
    }

    private ConjunctiveQuery query() {
        String name = identifier("a query name");
        expect('(');
        List<String> head = head();
        skipWhitespace();
        if (!text.startsWith(":-", pos)) {
            throw error("':-'");
        }
        pos += 2;
        List<Atom> body = new ArrayList<>();
        body.add(atom(0));
        List<ConjunctiveQuery.Key> keys = new ArrayList<>();
        while (true) {
            skipWhitespace();
            if (pos == text.length()) {
                break;
            }
            char c = text.charAt(pos);
            if (c == ',' && keys.isEmpty()) {
                pos++;
                body.add(atom(body.size()));
            } else if (c == ',') {
                pos++;
                keys.add(key(body, keys));
            } else if (c == '.') {
                pos++;
                skipWhitespace();
                if (pos < text.length()) {
                    throw error("end of input");
                }
                break;
            } else if (keys.isEmpty() && startsKeyword()) {
                pos += KEY.length();
                keys.add(key(body, keys));
            } else {
                throw error(keys.isEmpty() ? "',', '.', KEY or end of input" : "',', '.' or end of input");
            }
        }
        return new ConjunctiveQuery(name, head, body, keys);
    }

    private static final String KEY = "KEY";

    /** Whether the keyword {@code KEY} (in any case) stands at the current position, as a whole word. */
    private boolean startsKeyword() {
        int end = pos + KEY.length();
        return text.regionMatches(true, pos, KEY, 0, KEY.length())
                && (end == text.length() || !isIdentifierPart(text.charAt(end)));
    }

    /** One key: a relation of the body and its columns, by variable or by position (not both). */
    private ConjunctiveQuery.Key key(List<Atom> body, List<ConjunctiveQuery.Key> earlier) {
        skipWhitespace();
        int start = pos;
        String relation = identifier("a relation name");
        int arity = -1;
        for (Atom a : body) {
            if (a.relation().equals(relation)) {
                arity = a.arity();
            }
        }
        if (arity < 0) {
            throw positioned("KEY names relation " + relation + ", which the body does not use", start);
        }
        for (ConjunctiveQuery.Key k : earlier) {
            if (k.relation().equals(relation)) {
                throw positioned("relation " + relation + " has two keys; declare at most one key per relation", start);
            }
        }
        expect('(');
        List<String> names = new ArrayList<>();
        List<Integer> columns = new ArrayList<>();
        skipWhitespace();
        if (peek() == ')') {
            pos++;
            return new ConjunctiveQuery.Key(relation, columns);
        }
        while (true) {
            skipWhitespace();
            int at = pos;
            if (peek() == '#') {
                pos++;
                if (!isDigit(peek())) {
                    throw error("a column number after '#'");
                }
                int digits = pos;
                skipDigits();
                int column = parseColumn(text.substring(digits, pos), at);
                if (column >= arity) {
                    throw positioned(
                            "column #" + column + " of a key of " + relation + ", which has arity " + arity
                                    + " (columns #0 to #" + (arity - 1) + ")",
                            at);
                }
                if (!names.isEmpty()) {
                    throw positioned("a key names its columns by variable or by position, not both", at);
                }
                if (columns.contains(column)) {
                    throw positioned("column #" + column + " appears twice in the key of " + relation, at);
                }
                columns.add(column);
            } else {
                String variable = identifier(
                        names.isEmpty() && columns.isEmpty()
                                ? "a variable, a column such as #0, or ')'"
                                : "a variable");
                if (!columns.isEmpty()) {
                    throw positioned("a key names its columns by variable or by position, not both", at);
                }
                if (names.contains(variable)) {
                    throw positioned("variable " + variable + " appears twice in the key of " + relation, at);
                }
                names.add(variable);
            }
            skipWhitespace();
            char c = peek();
            if (c == ')') {
                pos++;
                break;
            }
            if (c != ',') {
                throw error("')' or ','");
            }
            pos++;
        }
        if (names.isEmpty()) {
            return new ConjunctiveQuery.Key(relation, columns);
        }
        try {
            return new ConjunctiveQuery.Key(relation, KeyText.resolve(body, relation, names));
        } catch (InvalidQueryException e) {
            throw positioned(e.getMessage(), start);
        }
    }

    private int parseColumn(String digits, int at) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw positioned("column #" + digits + " is too large", at);
        }
    }

    /** The head variables, after the opening parenthesis up to and including the closing one. */
    private List<String> head() {
        List<String> head = new ArrayList<>();
        skipWhitespace();
        if (peek() == ')') {
            pos++;
            return head;
        }
        while (true) {
            skipWhitespace();
            if (startsConstant()) {
                int start = pos;
                Constant c = constant();
                pos = start;
                throw error(
                        "a variable",
                        "the constant " + c
                                + "; the head lists free variables only, put constants into the body's atoms");
            }
            head.add(identifier(head.isEmpty() ? "a variable or ')'" : "a variable"));
            skipWhitespace();
            char c = peek();
            if (c == ')') {
                pos++;
                return head;
            }
            if (c != ',') {
                throw error("')' or ','");
            }
            pos++;
        }
    }

    private Atom atom(int index) {
        String relation = identifier("a relation name");
        expect('(');
        List<Term> terms = new ArrayList<>();
        skipWhitespace();
        if (peek() == ')') {
            pos++;
            return new Atom(index, relation, terms);
        }
        while (true) {
            terms.add(term(terms.isEmpty() ? "a variable, a constant or ')'" : "a variable or a constant"));
            skipWhitespace();
            char c = peek();
            if (c == ')') {
                pos++;
                return new Atom(index, relation, terms);
            }
            if (c != ',') {
                throw error("')' or ','");
            }
            pos++;
        }
    }

    private Term term(String expected) {
        skipWhitespace();
        if (startsConstant()) {
            return constant();
        }
        return new Variable(identifier(expected));
    }

    private boolean startsConstant() {
        char c = peek();
        return c == '\'' || c == '-' || isDigit(c);
    }

    /** A quoted string or a number; the caller has checked {@link #startsConstant()}. */
    private Constant constant() {
        int start = pos;
        if (peek() == '\'') {
            StringBuilder sb = new StringBuilder();
            pos++;
            while (true) {
                if (pos == text.length()) {
                    pos = start;
                    throw error("a closing quote for this string constant", "end of input");
                }
                char c = text.charAt(pos++);
                if (c == '\'') {
                    if (peek() != '\'') {
                        return new Constant(sb.toString(), true);
                    }
                    pos++;
                }
                sb.append(c);
            }
        }
        if (peek() == '-') {
            pos++;
        }
        if (!isDigit(peek())) {
            throw error("a digit");
        }
        skipDigits();
        if (peek() == '.' && pos + 1 < text.length() && isDigit(text.charAt(pos + 1))) {
            pos++;
            skipDigits();
        }
        return new Constant(text.substring(start, pos), false);
    }

    private String identifier(String expected) {
        skipWhitespace();
        int start = pos;
        if (!isIdentifierStart(peek())) {
            throw error(expected);
        }
        pos++;
        while (isIdentifierPart(peek())) {
            pos++;
        }
        return text.substring(start, pos);
    }

    private void expect(char c) {
        skipWhitespace();
        if (peek() != c) {
            throw error("'" + c + "'");
        }
        pos++;
    }

    /** The character at the current position, or 0 at the end of the input. */
    private char peek() {
        return pos < text.length() ? text.charAt(pos) : 0;
    }

    private void skipWhitespace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private void skipDigits() {
        while (isDigit(peek())) {
            pos++;
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isIdentifierStart(char c) {
        return c == '_' || Character.isLetter(c);
    }

    private static boolean isIdentifierPart(char c) {
        return c == '_' || Character.isLetterOrDigit(c);
    }

    private InvalidQueryException error(String expected) {
        return error(expected, found());
    }

    /** What stands at the current position: an identifier or a number as a whole, else one character. */
    private String found() {
        if (pos == text.length()) {
            return "end of input";
        }
        int end = pos + 1;
        if (isIdentifierPart(text.charAt(pos))) {
            while (end < text.length() && isIdentifierPart(text.charAt(end))) {
                end++;
            }
        }
        return "'" + text.substring(pos, end) + "'";
    }

    /**
     * "expected X at position p (line l, column c) but found Y", followed by the line of the text
     * with a caret under the position.
     */
    private InvalidQueryException error(String expected, String found) {
        return positioned("expected " + expected, pos, " but found " + found);
    }

    /** "message at position p (line l, column c)", followed by the line of the text with a caret under {@code at}. */
    private InvalidQueryException positioned(String message, int at) {
        return positioned(message, at, "");
    }

    private InvalidQueryException positioned(String message, int at, String after) {
        int lineStart = text.lastIndexOf('\n', at - 1) + 1;
        int lineEnd = text.indexOf('\n', at);
        if (lineEnd < 0) {
            lineEnd = text.length();
        }
        if (lineEnd > lineStart && text.charAt(lineEnd - 1) == '\r') {
            lineEnd--;
        }
        int line = 1;
        for (int i = 0; i < lineStart; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        StringBuilder caret = new StringBuilder();
        for (int i = lineStart; i < at; i++) {
            caret.append(text.charAt(i) == '\t' ? '\t' : ' ');
        }
        caret.append('^');
        String located = message + " at position " + at + " (line " + line + ", column " + (at - lineStart + 1) + ")"
                + after + "\n" + text.substring(lineStart, lineEnd) + "\n" + caret;
        return new InvalidQueryException(located, at);
    }
}
