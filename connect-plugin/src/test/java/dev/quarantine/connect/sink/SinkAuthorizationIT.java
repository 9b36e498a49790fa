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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;

/**
 * Write permission on the target topic missing: a broker with Kafka's StandardAuthorizer that allows everything
 * without ACLs, and a DENY WRITE ACL for the (anonymous) connector on the target topic, Describe still allowed. The
 * task fails at once with a message naming the record and the ACL to check, never retrying forever, and copies
 * everything once after the ACL is removed and the task restarted.
 */
class SinkAuthorizationIT {

    private static LocalKafka kafka;
    private static LocalConnect connect;

    @BeforeAll
    static void start() {
        kafka = LocalKafka.create(Map.of(
                "authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                "allow.everyone.if.no.acl.found", "true")).start();
        connect = LocalConnect.create(kafka, FaultSuite.PLUGIN_PATH, FaultSuite.workerClasspath()).start();
    }

    @AfterAll
    static void stop() {
        if (connect != null) {
            connect.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void failsTheTaskNamingTheRecordAndTheAclWhenWritingTheTargetIsDeniedAndCopiesOnceItIsGranted()
            throws Exception {
        FaultSuite.Topics topics = FaultSuite.Topics.create(kafka, "denied");
        AclBinding denyWrite = new AclBinding(new ResourcePattern(ResourceType.TOPIC, topics.target(),
                PatternType.LITERAL), new AccessControlEntry("User:ANONYMOUS", "*", AclOperation.WRITE,
                AclPermissionType.DENY));
        try (Admin admin = kafka.admin()) {
            admin.createAcls(List.of(denyWrite)).all().get(30, TimeUnit.SECONDS);
        }
        produce(kafka, topics.source(), 0, 300, i -> value("id=" + i));
        connect.createConnector(topics.name(), connectorConfig(kafka, topics));

        JsonNode failed = connect.awaitFailedTask(topics.name(), LANDED);

        assertThat(failed.path("trace").asText())
                .containsPattern(topics.source() + "-\\d@\\d+ cannot be written to " + topics.target())
                .contains("TopicAuthorizationException")
                .contains("Check the ACLs of the target producer's principal (WRITE and DESCRIBE on topic "
                        + topics.target());
        try (Admin admin = kafka.admin()) {
            admin.deleteAcls(List.of(denyWrite.toFilter())).all().get(30, TimeUnit.SECONDS);
        }
        connect.restartConnector(topics.name());
        connect.awaitRunning(topics.name(), 2, Duration.ofSeconds(90));
        try (TargetCollector target = new TargetCollector(kafka, List.of(topics.target()));
             TargetCollector dlq = new TargetCollector(kafka, List.of(topics.dlq()))) {
            target.awaitAtLeast(300, LANDED);
            assertExactlyOnce(target.drain(Duration.ofSeconds(3)), dlq.drain(Duration.ZERO),
                    IntStream.range(0, 300).boxed().collect(Collectors.toSet()), Set.of());
        }
        connect.deleteConnector(topics.name());
    }
}
