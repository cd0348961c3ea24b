package io.flinkivm.core.query;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Parses the text form of a conjunctive query, for example {@code Q(A,C) :- R(A,B), S(B,C,'x').}
 *
 * <pre>
 * query    = Name '(' [ Var { ',' Var } ] ')' ':-' atom { ',' atom } [ '.' ]
 * atom     = Rel '(' [ term { ',' term } ] ')'
 * term     = Var | 'quoted string' | number
 * number   = [ '-' ] digit { digit } [ '.' digit { digit } ]
 * Name, Rel, Var = ( letter | '_' ) { letter | digit | '_' }
 * </pre>
 *
 * Whitespace may appear between any two tokens. Inside a quoted string, {@code ''} stands for one
 * quote. Constants and repeated variables in an atom are selections (see {@link Atom#match}); the head
 * lists distinct variables only. The text of a numeric constant is kept as written.
 */
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
        while (true) {
            skipWhitespace();
            if (pos == text.length()) {
                break;
            }
            char c = text.charAt(pos);
            if (c == ',') {
                pos++;
                body.add(atom(body.size()));
            } else if (c == '.') {
                pos++;
                skipWhitespace();
                if (pos < text.length()) {
                    throw error("end of input");
                }
                break;
            } else {
                throw error("',', '.' or end of input");
            }
        }
        return new ConjunctiveQuery(name, head, body);
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
        int lineStart = text.lastIndexOf('\n', pos - 1) + 1;
        int lineEnd = text.indexOf('\n', pos);
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
        for (int i = lineStart; i < pos; i++) {
            caret.append(text.charAt(i) == '\t' ? '\t' : ' ');
        }
        caret.append('^');
        String message = "expected " + expected + " at position " + pos + " (line " + line + ", column "
                + (pos - lineStart + 1) + ") but found " + found + "\n"
                + text.substring(lineStart, lineEnd) + "\n" + caret;
        return new InvalidQueryException(message, pos);
    }
}
