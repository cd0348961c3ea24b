package io.flinkivm.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every public top-level type of the library's modules says whether users program against it: Flink's
 * {@code @PublicEvolving} for the API, {@code @Internal} for the rest (public only because another package or module
 * uses it). Surefire runs in this module's directory, so the other modules are its siblings.
 */
class ApiAnnotationsTest {

    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "^((?:@\\w+(?:\\([^)]*\\))?\\s*\\n)*)public (?:(?:final|abstract|sealed|non-sealed|static) )*"
                    + "(?:class|interface|record|enum|@interface) (\\w+)",
            Pattern.MULTILINE);

    @ParameterizedTest
    @ValueSource(strings = {"flink-ivm-core", "flink-ivm-operators", "flink-ivm-sql"})
    void everyPublicTypeIsMarkedApiOrInternal(String module) throws IOException {
        List<String> unmarked = new ArrayList<>();
        int types = 0;
        try (Stream<Path> files = Files.walk(Path.of("..", module, "src", "main", "java"))) {
            for (Path f : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher m = PUBLIC_TYPE.matcher(Files.readString(f, StandardCharsets.UTF_8));
                if (m.find()) {
                    types++;
                    if (!marked(m.group(1))) {
                        unmarked.add(m.group(2) + " (" + f + ")");
                    }
                }
            }
        }

        assertThat(types).as("public types of %s", module).isPositive();
        assertThat(unmarked)
                .as("public types of %s with neither @PublicEvolving nor @Internal", module)
                .isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "@PublicEvolving\npublic final class A {}",
                "@Internal\npublic record A(int a) {}",
                "@TypeInfo(AFactory.class)\n@PublicEvolving\npublic sealed interface A permits B {}"
            })
    void aMarkRightAboveTheTypeCounts(String source) {
        Matcher m = PUBLIC_TYPE.matcher("package p;\n\n/** A. */\n" + source);

        assertThat(m.find()).isTrue();
        assertThat(marked(m.group(1))).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"public final class A {}", "@SuppressWarnings(\"x\")\npublic enum A { B }"})
    void aTypeWithoutAMarkIsFound(String source) {
        Matcher m = PUBLIC_TYPE.matcher("package p;\n\n/** A. */\n" + source);

        assertThat(m.find()).isTrue();
        assertThat(marked(m.group(1))).isFalse();
    }

    private static boolean marked(String annotations) {
        return annotations.contains("@PublicEvolving\n") || annotations.contains("@Internal\n");
    }
}
