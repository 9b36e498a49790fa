package dev.quarantine.sandbox;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.TestAbortedException;

/**
 * Says which broker and worker logs to read when a test fails. On a failure of a test or of a {@code @BeforeAll},
 * {@code @BeforeEach}, {@code @AfterEach} or {@code @AfterAll} method, it copies the log of every sandbox child JVM
 * not closed yet (the broker, Connect workers) to {@code <sandbox.logs.dir>/<test class>/<test method>/}, before the
 * class's clean-up deletes the children's directories, and adds their paths to the failure as a suppressed exception,
 * each with its last lines at WARN or above or of this project's code ({@link LogExcerpt}): the failure Maven prints
 * ends with them, so a CI run that keeps no files still says what the broker and workers said. The failure itself is
 * rethrown unchanged; aborted tests pass through.
 *
 * <p>Registered for every test of the build by JUnit's extension auto-detection: this jar's
 * {@code META-INF/services/org.junit.jupiter.api.extension.Extension} and the root pom's
 * {@code junit.jupiter.extensions.autodetection.enabled=true}, which also sets {@code sandbox.logs.dir} to the module's
 * {@code target/sandbox-logs}.
 */
public final class SandboxLogsOnFailure implements TestExecutionExceptionHandler,
        LifecycleMethodExecutionExceptionHandler {

    static final String LOGS_DIR_PROPERTY = "sandbox.logs.dir";

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        throw withLogs(context, failure);
    }

    @Override
    public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable failure)
            throws Throwable {
        throw withLogs(context, failure);
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable failure)
            throws Throwable {
        throw withLogs(context, failure);
    }

    @Override
    public void handleAfterEachMethodExecutionException(ExtensionContext context, Throwable failure)
            throws Throwable {
        throw withLogs(context, failure);
    }

    @Override
    public void handleAfterAllMethodExecutionException(ExtensionContext context, Throwable failure)
            throws Throwable {
        throw withLogs(context, failure);
    }

    private static Throwable withLogs(ExtensionContext context, Throwable failure) {
        return withLogs(logsDir().resolve(folderOf(context)), failure);
    }

    /** {@code failure}, with the paths of the open children's logs, copied into {@code dir}, added if there are any. */
    static Throwable withLogs(Path dir, Throwable failure) {
        List<ChildJvm> children = ChildJvm.open();
        if (failure instanceof TestAbortedException || children.isEmpty()) {
            return failure;
        }
        StringBuilder paths = new StringBuilder("read the sandbox's logs, copied when this failed:");
        for (ChildJvm child : children) {
            paths.append("\n  ").append(child.what()).append(": ").append(copy(child, dir));
            LogExcerpt.of(child.log()).forEach(line -> paths.append("\n    | ").append(line));
        }
        failure.addSuppressed(new SandboxLogs(paths.toString()));
        return failure;
    }

    /** The copy's absolute path, or the log's own path (deleted when the child is closed) if it cannot be copied. */
    private static String copy(ChildJvm child, Path dir) {
        Path target = dir.resolve(child.workDir().getFileName() + "-" + child.log().getFileName());
        try {
            Files.createDirectories(dir);
            Files.copy(child.log(), target, StandardCopyOption.REPLACE_EXISTING);
            return target.toAbsolutePath().toString();
        } catch (IOException e) {
            return child.log() + " (not copied: " + e + "; deleted when the test closes it)";
        }
    }

    private static Path logsDir() {
        String configured = System.getProperty(LOGS_DIR_PROPERTY);
        return configured == null || configured.isBlank()
                ? Path.of(System.getProperty("java.io.tmpdir"), "quarantine-sandbox-logs")
                : Path.of(configured);
    }

    /** {@code <class>/<method>}, or {@code <class>/class} for a failure of the class's own set-up or clean-up. */
    private static Path folderOf(ExtensionContext context) {
        String testClass = context.getTestClass().map(Class::getSimpleName).orElse("unknown-class");
        String method = context.getTestMethod().map(Method::getName).orElse("class");
        return Path.of(testClass, method);
    }

    /** Carries the paths only: no stack trace of its own. */
    static final class SandboxLogs extends RuntimeException {
        SandboxLogs(String message) {
            super(message, null, false, false);
        }
    }
}
