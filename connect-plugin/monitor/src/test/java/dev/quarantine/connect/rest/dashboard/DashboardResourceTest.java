package dev.quarantine.connect.rest.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import jakarta.ws.rs.core.Response;

/**
 * The dashboard's files as served, and the rules that keep hostile record data inert in them: a policy without inline
 * script, no inline script or style or event handler in the page, and no HTML parsing in the script. The browser
 * test (DeadLetterDashboardIT, in the archive module) shows the same on a real worker.
 */
class DashboardResourceTest {

    private final DashboardResource resource = new DashboardResource(false);

    @Test
    void servesThePageItsScriptStyleAndIconEachWithThePolicyAndTheirType() {
        for (String file : List.of("common.js", "overview.js", "topic.js", "replay.js", "dashboard.js",
                "dashboard.css", "icon.svg")) {
            Response answer = resource.file(file);

            assertThat(answer.getStatus()).as(file).isEqualTo(200);
            assertThat(answer.getHeaderString("Content-Security-Policy")).as(file)
                    .isEqualTo(DashboardResource.CONTENT_SECURITY_POLICY);
            assertThat(answer.getHeaderString("X-Content-Type-Options")).isEqualTo("nosniff");
        }
        Response page = resource.page();
        assertThat(page.getStatus()).isEqualTo(200);
        assertThat(page.getMediaType().toString()).startsWith("text/html");
        assertThat(page.getHeaderString("Content-Security-Policy")).isEqualTo(DashboardResource.CONTENT_SECURITY_POLICY);
        assertThat(resource.file("dashboard.js").getMediaType().toString()).startsWith("text/javascript");
    }

    @Test
    void answersAnyOtherFileWith404() {
        for (String file : List.of("index.htm", "..%2FMonitorConfig.class", "DashboardResource.class", "secret")) {
            assertThat(resource.file(file).getStatus()).as(file).isEqualTo(404);
        }
    }

    @Test
    void policyAllowsNoInlineScriptNoOtherOriginAndNoFraming() {
        String policy = DashboardResource.CONTENT_SECURITY_POLICY;

        assertThat(policy).contains("default-src 'none'", "script-src 'self'", "style-src 'self'",
                "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'none'")
                .doesNotContain("unsafe-inline", "unsafe-eval", "http:", "https:", "*", "data:");
    }

    @Test
    void pageHasNoInlineScriptStyleOrEventHandlerAndLoadsNothingFromElsewhere() {
        String page = text(resource.page());

        Matcher scripts = Pattern.compile("<script([^>]*)>(.*?)</script>", Pattern.DOTALL).matcher(page);
        int count = 0;
        while (scripts.find()) {
            count++;
            assertThat(scripts.group(1)).matches(" src=\"ui/[a-z]+\\.js\" defer");
            assertThat(scripts.group(2)).isBlank();
        }
        assertThat(count).isEqualTo(pageScripts().size());
        assertThat(page).doesNotContainPattern("(?i)<style|\\sstyle=|\\son[a-z]+=|javascript:|//[a-z0-9.-]+\\.[a-z]");
    }

    @Test
    void pageLoadsEachViewsScriptAfterWhatTheyShareAndTheNavigationLast() {
        List<String> scripts = pageScripts();

        assertThat(scripts).containsExactly("common.js", "overview.js", "topic.js", "replay.js", "dashboard.js");
        for (String script : scripts) {
            Response answer = resource.file(script);
            assertThat(answer.getStatus()).as(script).isEqualTo(200);
            assertThat(answer.getMediaType().toString()).as(script).startsWith("text/javascript");
        }
    }

    @Test
    void noScriptParsesHtmlOrEvaluatesText() {
        for (String file : pageScripts()) {
            String script = text(resource.file(file));

            assertThat(script).as(file).doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML",
                    "document.write", "eval(", "new Function", "setAttribute('on", "DOMParser",
                    "createContextualFragment");
        }
        assertThat(text(resource.file("common.js"))).as("the helpers every view writes text with")
                .contains("textContent");
    }

    @Test
    void tellsThePageWhetherReplayIsAvailable() {
        assertThat(text(new DashboardResource(false).features())).isEqualTo("{\"replay\":false}");
        assertThat(text(new DashboardResource(true).features())).isEqualTo("{\"replay\":true}");
    }

    /** The scripts the page loads, in its order. */
    private List<String> pageScripts() {
        Matcher sources = Pattern.compile("<script src=\"ui/([^\"]+)\"").matcher(text(resource.page()));
        List<String> scripts = new ArrayList<>();
        while (sources.find()) {
            scripts.add(sources.group(1));
        }
        return scripts;
    }

    private static String text(Response answer) {
        return new String((byte[]) answer.getEntity(), StandardCharsets.UTF_8);
    }
}
