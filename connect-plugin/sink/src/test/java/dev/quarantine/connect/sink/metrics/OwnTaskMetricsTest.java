package dev.quarantine.connect.sink.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.apache.kafka.common.errors.RecordTooLargeException;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.FakeSinkTaskContext;

/** The metrics a task keeps of its own on a worker older than Kafka Connect 4.1, where 4.1 would show them. */
class OwnTaskMetricsTest {

    private final MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();

    @Test
    void reportsTheSinkMetricsOverJmxUnderConnectsPluginNamesUntilClosed() throws Exception {
        SinkMetrics metrics = new SinkMetrics(OwnTaskMetrics.create("orders-copy", "3"));
        metrics.recordsWritten(7);
        metrics.deadLettered(new RecordTooLargeException("too large"));
        ObjectName task = new ObjectName("kafka.connect:type=plugins,connector=orders-copy,task=3");
        ObjectName byErrorClass = new ObjectName("kafka.connect:type=plugins,connector=orders-copy,task=3,"
                + "error-class=RecordTooLargeException");

        assertThat(jmx.getAttribute(task, "records-written-total")).isEqualTo(7.0);
        assertThat(jmx.getAttribute(byErrorClass, "records-dead-lettered-total")).isEqualTo(1.0);

        metrics.close();

        assertThat(jmx.isRegistered(task)).as("the bean is removed with the task").isFalse();
    }

    @Test
    void usesTheWorkersPluginMetricsWhereTheWorkerHasThem() {
        FakeSinkTaskContext context = new FakeSinkTaskContext();

        assertThat(TaskMetrics.of(context, "orders-copy", "0")).isInstanceOf(WorkerPluginMetrics.class);
    }
}
