package io.flinkivm.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.QueryParser;
import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.junit.jupiter.api.Test;

/**
 * Core is plain Java at run time: its runtime classpath, as Maven resolves it, has no Flink artifact. Flink's
 * annotations ({@code @PublicEvolving}, {@code @Internal}) are the only Flink artifact it compiles against, provided
 * and optional, and core's classes run without them.
 */
class RuntimeClasspathTest {

    @Test
    void theRuntimeClasspathHasNoFlinkArtifact() throws IOException {
        List<String> runtime = classpath("flinkivm.runtimeClasspath");

        assertThat(runtime)
                .as("core's runtime classpath")
                .anyMatch(e -> e.contains("commons-math3"))
                .noneMatch(e -> unix(e).contains("/org/apache/flink/"));
    }

    @Test
    void flinksAnnotationsAreTheOnlyFlinkArtifactAtCompileTime() throws IOException {
        List<String> compile = classpath("flinkivm.compileClasspath");

        assertThat(compile)
                .filteredOn(e -> unix(e).contains("/org/apache/flink/"))
                .as("Flink artifacts on core's compile classpath")
                .singleElement()
                .satisfies(e -> assertThat(unix(e)).contains("/org/apache/flink/flink-annotations/"));
        assertThat(compile).noneMatch(e -> e.contains("slf4j") || e.contains("jsr305"));
    }

    /**
     * Core's classes on their runtime classpath alone, without Flink's annotations: they load (the JVM leaves out an
     * annotation whose class is missing) and work.
     */
    @Test
    void coreRunsWithoutTheAnnotations() throws Exception {
        List<URL> urls = new ArrayList<>();
        urls.add(Path.of(System.getProperty("flinkivm.coreClasses")).toUri().toURL());
        for (String e : classpath("flinkivm.runtimeClasspath")) {
            urls.add(Path.of(e).toUri().toURL());
        }
        try (URLClassLoader loader =
                new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader())) {
            assertThatThrownBy(() -> loader.loadClass(PublicEvolving.class.getName()))
                    .isInstanceOf(ClassNotFoundException.class);
            Class<?> parser = loader.loadClass(QueryParser.class.getName());
            Object query = parser.getMethod("parse", String.class).invoke(null, "Q(A) :- R(A,B), S(A)");

            assertThat(query.getClass().getClassLoader()).isSameAs(loader);
            assertThat(query)
                    .hasToString(QueryParser.parse("Q(A) :- R(A,B), S(A)").toString());
            assertThat(parser.getAnnotations()).isEmpty();
            assertThat(QueryParser.class.isAnnotationPresent(PublicEvolving.class))
                    .isTrue();
        }
    }

    private static List<String> classpath(String property) throws IOException {
        String text = Files.readString(Path.of(System.getProperty(property))).trim();
        return text.isEmpty() ? List.of() : List.of(text.split(File.pathSeparator));
    }

    private static String unix(String path) {
        return path.replace(File.separatorChar, '/');
    }
}
