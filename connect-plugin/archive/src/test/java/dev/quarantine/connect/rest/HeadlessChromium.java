package dev.quarantine.connect.rest;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;

import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Debian's Chromium and its chromedriver for the dashboard's browser test. A machine that lacks them gets them from
 * the OS package registry ({@code apt-get install chromium chromium-driver}, as root), so {@code mvn verify} stays all
 * a newcomer runs; where that is impossible the test fails with {@link #HOW_TO_INSTALL}, it is never skipped. The test
 * JVMs of one build (failsafe's forks) and of other builds on the machine install one at a time ({@link #INSTALL_LOCK}):
 * two apt-get runs at once fail on apt's own locks, and did in a fresh machine's first run. Other locations:
 * {@code -Dquarantine.chromium=...} and {@code -Dquarantine.chromedriver=...}.
 */
final class HeadlessChromium {

    static final Path BROWSER = Path.of(System.getProperty("quarantine.chromium", "/usr/bin/chromium"));
    static final Path DRIVER = Path.of(System.getProperty("quarantine.chromedriver", "/usr/bin/chromedriver"));
    static final String HOW_TO_INSTALL = "install Chromium and its driver with `sudo apt-get install -y chromium"
            + " chromium-driver` (Debian; on Ubuntu the same packages), or point -Dquarantine.chromium and"
            + " -Dquarantine.chromedriver at a Chromium and the chromedriver of the same version";
    /** The lock file the installing JVM holds (every JVM of the machine uses the same temporary directory). */
    static final Path INSTALL_LOCK = Path.of(System.getProperty("java.io.tmpdir"),
            "quarantine-chromium-install.lock");
    private static final long INSTALL_MINUTES = 15;

    private HeadlessChromium() {
    }

    /** Chromium and chromedriver, installed now if missing. @throws AssertionError saying how to install them */
    static synchronized void ensureInstalled() {
        if (installed()) {
            return;
        }
        String outcome = onceOnThisMachine(INSTALL_LOCK, HeadlessChromium::installed, HeadlessChromium::install);
        if (!installed()) {
            throw new AssertionError("The dashboard test needs headless Chromium (" + BROWSER + ") and chromedriver ("
                    + DRIVER + "), and they could not be installed here (" + outcome + "): " + HOW_TO_INSTALL);
        }
    }

    /** A headless browser with its console log kept; {@code quit()} it. */
    static ChromeDriver start(int width, int height) throws IOException {
        ensureInstalled();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        // the flags a root user on a machine without network needs: no sandbox, no background connections
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-extensions", "--window-size=" + width + "," + height,
                "--user-data-dir=" + Files.createTempDirectory("dashboard-chromium"));
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    /**
     * Runs {@code install} holding {@code lockFile}'s lock, which other JVMs of the machine wait for, unless
     * {@code installed} is true once the lock is held (another JVM installed meanwhile). Threads of one JVM must not
     * call it at once (a JVM holds a file's lock once): {@link #ensureInstalled} is synchronized.
     *
     * @return what {@code install} said, or why it did not run
     */
    static String onceOnThisMachine(Path lockFile, BooleanSupplier installed, Supplier<String> install) {
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            channel.lock(); // released when the channel closes
            return installed.getAsBoolean() ? "installed by another JVM while this one waited" : install.get();
        } catch (IOException e) {
            return "could not lock " + lockFile + " to install: " + e.getMessage();
        }
    }

    private static boolean installed() {
        return Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER);
    }

    private static String install() {
        if (!Files.isExecutable(Path.of("/usr/bin/apt-get"))) {
            return "no apt-get on this machine";
        }
        if (!"0".equals(run(List.of("id", "-u")).trim())) {
            return "not root, so apt-get cannot install";
        }
        String update = run(List.of("apt-get", "update", "-qq"));
        // waits for apt's lock when something outside this build holds it (unattended upgrades)
        String install = run(List.of("apt-get", "install", "-y", "-qq", "-o", "DPkg::Lock::Timeout=600", "chromium",
                "chromium-driver"));
        return "apt-get said: " + tail(update) + " / " + tail(install);
    }

    /** Runs {@code command} (non-interactive, at most {@link #INSTALL_MINUTES}); its output, or why it did not run. */
    private static String run(List<String> command) {
        try {
            Path output = Files.createTempFile("dashboard-chromium-install", ".log");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null")
                            .toFile()));
            builder.environment().put("DEBIAN_FRONTEND", "noninteractive");
            Process process = builder.start();
            if (!process.waitFor(INSTALL_MINUTES, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                return command + " did not finish in " + INSTALL_MINUTES + " minutes";
            }
            return Files.readString(output, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return command.get(0) + " could not run: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private static String tail(String output) {
        String trimmed = output.strip();
        return trimmed.length() <= 300 ? trimmed : "..." + trimmed.substring(trimmed.length() - 300);
    }
}
