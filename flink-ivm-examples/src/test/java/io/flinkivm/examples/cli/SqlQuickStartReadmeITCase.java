package io.flinkivm.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.examples.testing.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Quick start in SQL" as a user runs it, read from the README at test time: its rows file, its
 * {@code java -jar flink-ivm-examples.jar run ...} command (on the embedded Flink, as the README runs it) and the
 * result it shows, in any order. Failsafe runs in this module's directory: the README is in its parent.
 */
class SqlQuickStartReadmeITCase {

    private static final String JAR = "flink-ivm-examples/target/flink-ivm-examples.jar";

    @TempDir
    Path dir;

    @Test
    void theSqlQuickStartWritesWhatTheReadmeShows() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
        Path rows = Files.writeString(dir.resolve("rows.csv"), block(readme, "sql-rows"), StandardCharsets.UTF_8);
        Path revenue = dir.resolve("revenue.csv");
        List<String> words = words(block(readme, "sql-command"));
        assertThat(words.subList(0, 3)).containsExactly("java", "-jar", JAR);
        List<String> args = new ArrayList<>();
        for (String w : words.subList(3, words.size())) {
            args.add(w.equals("rows.csv") ? rows.toString() : w.equals("revenue.csv") ? revenue.toString() : w);
        }

        CliRun r = CliRun.of(args.toArray(new String[0]));

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(Files.readAllLines(revenue, StandardCharsets.UTF_8))
                .containsExactlyInAnyOrderElementsOf(
                        block(readme, "sql-output").lines().toList());
    }

    /** The fenced block right after the README's {@code <!-- quick-start:NAME} comment. */
    private static String block(String readme, String name) {
        int marker = readme.indexOf("<!-- quick-start:" + name);
        assertThat(marker).as("README has a block marked quick-start:" + name).isNotNegative();
        int start = readme.indexOf('\n', readme.indexOf("```", readme.indexOf("-->", marker))) + 1;
        return readme.substring(start, readme.indexOf("\n```", start) + 1);
    }

    /** A shell command's words: quotes (single or double, no expansions inside) kept together, {@code \} joins lines. */
    private static List<String> words(String command) {
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        String text = command.replace("\\\n", " ");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    out.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            out.add(word.toString());
        }
        return out;
    }
}
