package dev.quarantine.connect.rest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;

import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real headless Chromium, read the way a person sees it: the text of its cells, bars and cards.
 * Signs in like a person with the worker's credentials (the browser answers the monitor's Basic challenge).
 */
final class DashboardPage implements AutoCloseable {

    static final Path SCREENSHOTS = Path.of("target", "dashboard-screenshots");
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final ChromeDriver browser;

    private DashboardPage(ChromeDriver browser) {
        this.browser = browser;
    }

    /** Opens {@code GET /dead-letters/ui} of the worker at {@code restUrl} as {@code user} ({@code null}: none). */
    static DashboardPage open(String restUrl, String user, String password) throws IOException {
        DashboardPage page = new DashboardPage(HeadlessChromium.start(1280, 1000));
        String signedIn = user == null ? restUrl : restUrl.replace("://", "://" + user + ":" + password + "@");
        page.browser.get(signedIn + "/dead-letters/ui");
        page.await(() -> "true".equals(page.bodyData("loaded")), () -> "the dashboard's first refresh");
        return page;
    }

    /** Per topic of the overview table: total, rate 1 min, rate 15 min, last seen, as shown. */
    Map<String, List<String>> overview() {
        return rows("return Array.from(document.querySelectorAll('#topics tbody tr'), r => [r.dataset.topic,"
                + " ...['total', 'rate1', 'rate15', 'last'].map(c => r.querySelector('.' + c).innerText.trim())])");
    }

    String grandTotal() {
        return text("grand-total");
    }

    /** Tabs from the top of the page to {@code topic}'s link and presses Enter. */
    void openTopicWithKeyboard(String topic) {
        script("if (document.activeElement) { document.activeElement.blur(); }");
        WebElement link = browser.findElement(By.cssSelector("#topics tr[data-topic='" + topic + "'] a"));
        for (int presses = 0; presses < 60 && !link.equals(browser.switchTo().activeElement()); presses++) {
            new Actions(browser).sendKeys(Keys.TAB).perform();
        }
        if (!link.equals(browser.switchTo().activeElement())) {
            throw new AssertionError("the link to " + topic + " cannot be reached with the Tab key");
        }
        new Actions(browser).sendKeys(Keys.ENTER).perform();
        await(() -> topic.equals(text("topic-title")) && !text("t-total").equals("–")
                && !browser.findElements(By.cssSelector("#records tbody tr")).isEmpty(), () -> "the view of " + topic);
    }

    /** Back to the overview through the page's own link. */
    void backToOverview() {
        browser.findElement(By.cssSelector("#topic a.back")).click();
        await(() -> browser.findElement(By.id("overview")).isDisplayed(), () -> "the overview");
    }

    /**
     * Fills the replay form (an error class, a named destination topic), previews the replay and confirms it, as a
     * person does: the dry run is shown first, the replay starts with the confirmation.
     */
    void startReplay(String errorClass, String destinationTopic) {
        fillReplayForm(errorClass, destinationTopic);
        previewReplay();
        confirmReplay();
    }

    /** As {@link #startReplay(String, String)}, typing the form's speed limits too. */
    void startReplay(String errorClass, String destinationTopic, long maxRecordsPerSecond, long maxBytesPerSecond) {
        fillReplayForm(errorClass, destinationTopic);
        WebElement form = browser.findElement(By.id("replay-form"));
        form.findElement(By.name("maxRecordsPerSecond")).sendKeys(String.valueOf(maxRecordsPerSecond));
        form.findElement(By.name("maxBytesPerSecond")).sendKeys(String.valueOf(maxBytesPerSecond));
        previewReplay();
        confirmReplay();
    }

    /** Asks for the dry run of the form's replay and waits until it is shown; answers its rows (topic to count). */
    Map<String, String> previewReplay() {
        WebElement form = browser.findElement(By.id("replay-form"));
        await(form::isDisplayed, () -> "the replay form");
        browser.findElement(By.id("replay-start")).click();
        await(() -> browser.findElement(By.id("replay-confirm")).isDisplayed(), () -> "the replay's dry run");
        Map<String, String> rows = new LinkedHashMap<>();
        rows("return Array.from(document.querySelectorAll('#replay-dry tbody tr[data-topic]'), r =>"
                + " [r.cells[0].innerText.trim(), r.cells[1].innerText.trim()])")
                .forEach((topic, count) -> rows.put(topic, count.get(0)));
        return rows;
    }

    /** Confirms the previewed replay and waits until its progress is shown. */
    void confirmReplay() {
        browser.findElement(By.id("replay-confirm-start")).click();
        await(() -> browser.findElement(By.id("replay-progress")).isDisplayed(), () -> "the replay's progress");
    }

    private void fillReplayForm(String errorClass, String destinationTopic) {
        WebElement form = browser.findElement(By.id("replay-form"));
        await(form::isDisplayed, () -> "the replay form");
        await(() -> !new Select(form.findElement(By.name("errorClass"))).getOptions().stream()
                .filter(o -> errorClass.equals(o.getAttribute("value"))).toList().isEmpty(),
                () -> "error class " + errorClass + " among the replay filters");
        new Select(form.findElement(By.name("errorClass"))).selectByValue(errorClass);
        new Select(form.findElement(By.name("destination"))).selectByValue("topic");
        WebElement topic = form.findElement(By.name("destinationTopic"));
        await(topic::isEnabled, () -> "the named-topic field enabled");
        topic.sendKeys(destinationTopic);
    }

    String text(String id) {
        return browser.findElement(By.id(id)).getText();
    }

    /** The bars of list {@code id}: name to count, as shown. */
    Map<String, String> bars(String id) {
        Map<String, String> bars = new LinkedHashMap<>();
        rows("return Array.from(document.querySelectorAll('#" + id + " li[data-name]'), li =>"
                + " [li.querySelector('.name').innerText.trim(), li.querySelector('.count').innerText.trim()])")
                .forEach((name, count) -> bars.put(name, count.get(0)));
        return bars;
    }

    /** The newest records' rows: their own position to their format, origin, error class and connector cells. */
    Map<String, List<String>> records() {
        return rows("return Array.from(document.querySelectorAll('#records tbody tr[data-position]'), r =>"
                + " [r.dataset.position, ...Array.from(r.cells).slice(1, 5).map(c => c.innerText.trim())])");
    }

    /** Rows read in one script (the page refreshes itself meanwhile): first column to the others. */
    @SuppressWarnings("unchecked")
    private Map<String, List<String>> rows(String javaScript) {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        for (Object row : (List<Object>) script(javaScript)) {
            List<String> cells = ((List<Object>) row).stream().map(String::valueOf).toList();
            rows.put(cells.get(0), cells.subList(1, cells.size()));
        }
        return rows;
    }

    /** The lines under each record: its error message, key and value, where the worker exposes them. */
    List<String> recordDetails() {
        return ((List<?>) script("return Array.from(document.querySelectorAll('#records tr.more p'),"
                + " p => p.innerText.trim())")).stream().map(String::valueOf).toList();
    }

    /** The accessible label of the per-minute chart ("N dead letters in the last 15 minutes, per minute"). */
    String minutesChartLabel() {
        return browser.findElement(By.cssSelector("#t-minutes svg")).getAttribute("aria-label");
    }

    int minutesChartBars() {
        return browser.findElements(By.cssSelector("#t-minutes svg rect")).size();
    }

    boolean displayed(String id) {
        return browser.findElement(By.id(id)).isDisplayed();
    }

    int count(String css) {
        return browser.findElements(By.cssSelector(css)).size();
    }

    Object script(String javaScript) {
        return ((JavascriptExecutor) browser).executeScript(javaScript);
    }

    String title() {
        return browser.getTitle();
    }

    /** Whether the page is wider than the window (content a person would have to scroll sideways to). */
    boolean overflowsSideways() {
        return (Boolean) script("return document.documentElement.scrollWidth > window.innerWidth");
    }

    void resize(int width, int height) {
        browser.manage().window().setSize(new Dimension(width, height));
    }

    /** Saves what the window shows now as {@code target/dashboard-screenshots/<name>.png}. */
    Path screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Path file = SCREENSHOTS.resolve(name + ".png");
        Files.copy(browser.getScreenshotAs(OutputType.FILE).toPath(), file, StandardCopyOption.REPLACE_EXISTING);
        return file;
    }

    /** Console entries at level SEVERE (errors, failed requests, policy violations) since the last call. */
    List<String> consoleErrors() {
        return browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
                .map(LogEntry::toString).toList();
    }

    /** Waits for the page's next refresh to have happened (the "updated" time changes). */
    void awaitRefresh() {
        String before = text("updated");
        await(() -> !before.equals(text("updated")) && text("updated").startsWith("updated"),
                () -> "a refresh after '" + before + "'");
    }

    void await(BooleanSupplier condition, Supplier<String> what) {
        try {
            new WebDriverWait(browser, WAIT).until(b -> condition.getAsBoolean());
        } catch (TimeoutException e) {
            throw new AssertionError("dashboard: no " + what.get() + " within " + WAIT.toSeconds() + " s; notice: '"
                    + text("notice") + "', updated: '" + text("updated") + "'", e);
        }
    }

    private String bodyData(String name) {
        return browser.findElement(By.tagName("body")).getAttribute("data-" + name);
    }

    @Override
    public void close() {
        browser.quit();
    }
}
