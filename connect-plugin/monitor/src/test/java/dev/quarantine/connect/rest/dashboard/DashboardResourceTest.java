package dev.quarantine.connect.rest.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
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
        for (String file : List.of("dashboard.js", "dashboard.css", "icon.svg")) {
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
            assertThat(scripts.group(1)).contains("src=\"ui/dashboard.js\"");
            assertThat(scripts.group(2)).isBlank();
        }
        assertThat(count).isEqualTo(1);
        assertThat(page).doesNotContainPattern("(?i)<style|\\sstyle=|\\son[a-z]+=|javascript:|//[a-z0-9.-]+\\.[a-z]");
    }

    @Test
    void scriptNeverParsesHtmlOrEvaluatesText() {
        String script = text(resource.file("dashboard.js"));

        assertThat(script).doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                "new Function", "setAttribute('on", "DOMParser", "createContextualFragment");
        assertThat(script).contains("textContent");
    }

    @Test
    void tellsThePageWhetherReplayIsAvailable() {
        assertThat(text(new DashboardResource(false).features())).isEqualTo("{\"replay\":false}");
        assertThat(text(new DashboardResource(true).features())).isEqualTo("{\"replay\":true}");
    }

    private static String text(Response answer) {
        return new String((byte[]) answer.getEntity(), StandardCharsets.UTF_8);
    }
}
