package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.FaultSuite.LANDED;
import static dev.quarantine.connect.sink.FaultSuite.assertExactlyOnce;
import static dev.quarantine.connect.sink.FaultSuite.connectorConfig;
import static dev.quarantine.connect.sink.FaultSuite.produce;
import static dev.quarantine.connect.sink.FaultSuite.value;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;

import dev.quarantine.sandbox.LocalCluster;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.TopicReader;

/**
 * Write permission missing: a broker with Kafka's StandardAuthorizer that allows everything without ACLs, and on
 * the target topic (or the DLQ, or the progress topic) ACLs that allow the (anonymous) connector everything but
 * WRITE. The task fails at
 * once with a message naming the record (or its dead letter's topic) and the ACL to check, never retrying forever,
 * and copies everything once after the ACLs are removed and the task restarted.
 */
class SinkAuthorizationIT {

    @RegisterExtension
    static final LocalCluster cluster = LocalCluster.ownBroker(Map.of(
                    "authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                    "allow.everyone.if.no.acl.found", "true"))
            .withWorkers(1, FaultSuite::worker);

    @Test
    void failsTheTaskNamingTheDeadLetterTopicWhenWritingItIsDeniedAndCopiesOnceItIsGranted() throws Exception {
        FaultSuite.Topics topics = FaultSuite.Topics.create(cluster.kafka(), "dlqdenied");
        List<AclBinding> denyWrite = denyWrite(topics.dlq());
        produce(cluster.kafka(), topics.source(), 0, 300, i -> i == 150 ? new byte[50_000] : value("id=" + i));
        cluster.worker().createConnector(topics.name(), connectorConfig(cluster.kafka(), topics,
                "target.producer.max.request.size", "20000"));

        JsonNode failed = cluster.worker().awaitFailedTask(topics.name(), LANDED);

        assertThat(failed.path("trace").asText())
                .containsPattern("The dead letter of " + topics.source() + "-\\d@\\d+ cannot be written to"
                        + " dead-letter topic " + topics.dlq())
                .contains("TopicAuthorizationException");
        allow(denyWrite);
        cluster.worker().restartConnector(topics.name());
        cluster.worker().awaitRunning(topics.name(), 2, Duration.ofSeconds(90));
        try (TopicReader target = TopicReader.open(cluster.kafka(), List.of(topics.target()));
             TopicReader dlq = TopicReader.open(cluster.kafka(), List.of(topics.dlq()))) {
            target.awaitAtLeast(299, LANDED);
            dlq.awaitAtLeast(1, LANDED);
            assertExactlyOnce(target.drain(Duration.ofSeconds(3)), dlq.drain(Duration.ZERO),
                    IntStream.range(0, 300).filter(i -> i != 150).boxed().collect(Collectors.toSet()), Set.of(150));
        }
        cluster.worker().deleteConnector(topics.name());
    }

    @Test
    void failsTheTaskNamingTheRecordAndTheAclWhenWritingTheTargetIsDeniedAndCopiesOnceItIsGranted()
            throws Exception {
        FaultSuite.Topics topics = FaultSuite.Topics.create(cluster.kafka(), "denied");
        List<AclBinding> denyWrite = denyWrite(topics.target());
        produce(cluster.kafka(), topics.source(), 0, 300, i -> value("id=" + i));
        cluster.worker().createConnector(topics.name(), connectorConfig(cluster.kafka(), topics));

        JsonNode failed = cluster.worker().awaitFailedTask(topics.name(), LANDED);

        assertThat(failed.path("trace").asText())
                .containsPattern(topics.source() + "-\\d@\\d+ cannot be written to " + topics.target())
                .contains("TopicAuthorizationException")
                .contains("Check the ACLs of the target producer's principal (WRITE and DESCRIBE on topic "
                        + topics.target());
        copiesEveryRecordOnceOnceGranted(topics, denyWrite);
    }

    @Test
    void failsTheTaskNamingTheProgressTopicWhenWritingItIsDeniedAndCopiesOnceItIsGranted() throws Exception {
        FaultSuite.Topics topics = FaultSuite.Topics.create(cluster.kafka(), "progressdenied");
        String progress = topics.name() + ".progress.internal";
        List<AclBinding> denyWrite = denyWrite(progress);
        produce(cluster.kafka(), topics.source(), 0, 300, i -> value("id=" + i));
        cluster.worker().createConnector(topics.name(), connectorConfig(cluster.kafka(), topics));

        JsonNode failed = cluster.worker().awaitFailedTask(topics.name(), LANDED);

        // from step 4c on a partition's claim is the first record the task writes there, refused the same way
        assertThat(failed.path("trace").asText())
                .containsPattern("The claims of \\[[^]]*" + topics.source() + "-\\d[^]]*\\] by [^ ]+ cannot be"
                        + " written to the progress topic " + progress)
                .contains("TopicAuthorizationException")
                .contains("WRITE and DESCRIBE on topic " + progress);
        copiesEveryRecordOnceOnceGranted(topics, denyWrite);
    }

    /**
     * Everything but WRITE on {@code topic} for the anonymous principal: an ALLOW ALL (an ACL on a topic ends
     * allow.everyone.if.no.acl.found for it) and a DENY WRITE, which wins.
     */
    private static List<AclBinding> denyWrite(String topic) throws Exception {
        ResourcePattern pattern = new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL);
        List<AclBinding> acls = List.of(
                new AclBinding(pattern, new AccessControlEntry("User:ANONYMOUS", "*", AclOperation.ALL,
                        AclPermissionType.ALLOW)),
                new AclBinding(pattern, new AccessControlEntry("User:ANONYMOUS", "*", AclOperation.WRITE,
                        AclPermissionType.DENY)));
        try (Admin admin = cluster.kafka().admin()) {
            admin.createAcls(acls).all().get(30, TimeUnit.SECONDS);
        }
        return acls;
    }

    private static void allow(List<AclBinding> acls) throws Exception {
        try (Admin admin = cluster.kafka().admin()) {
            admin.deleteAcls(acls.stream().map(AclBinding::toFilter).toList()).all().get(30, TimeUnit.SECONDS);
        }
    }

    /** Grants what was denied, restarts the connector and checks the 300 source records landed exactly once. */
    private void copiesEveryRecordOnceOnceGranted(FaultSuite.Topics topics, List<AclBinding> denied)
            throws Exception {
        allow(denied);
        cluster.worker().restartConnector(topics.name());
        cluster.worker().awaitRunning(topics.name(), 2, Duration.ofSeconds(90));
        try (TopicReader target = TopicReader.open(cluster.kafka(), List.of(topics.target()));
             TopicReader dlq = TopicReader.open(cluster.kafka(), List.of(topics.dlq()))) {
            target.awaitAtLeast(300, LANDED);
            assertExactlyOnce(target.drain(Duration.ofSeconds(3)), dlq.drain(Duration.ZERO),
                    IntStream.range(0, 300).boxed().collect(Collectors.toSet()), Set.of());
        }
        cluster.worker().deleteConnector(topics.name());
    }
}
