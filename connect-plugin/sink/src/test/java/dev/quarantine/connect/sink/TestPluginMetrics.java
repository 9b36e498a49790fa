package dev.quarantine.connect.sink;

import java.util.LinkedHashMap;

import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.MetricValueProvider;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.Sensor;

/** PluginMetrics over a plain Metrics registry, with a reader for assertions. */
public final class TestPluginMetrics implements PluginMetrics {

    private final Metrics metrics = new Metrics();

    @Override
    public MetricName metricName(String name, String description, LinkedHashMap<String, String> tags) {
        return metrics.metricName(name, "plugins", description, tags);
    }

    @Override
    public void addMetric(MetricName metricName, MetricValueProvider<?> provider) {
        metrics.addMetric(metricName, provider);
    }

    @Override
    public void removeMetric(MetricName metricName) {
        metrics.removeMetric(metricName);
    }

    @Override
    public Sensor addSensor(String name) {
        return metrics.sensor(name);
    }

    @Override
    public void removeSensor(String name) {
        metrics.removeSensor(name);
    }

    /** The value of the metric with this name and these tags (name, value pairs), or null. */
    public Object value(String name, String... tags) {
        LinkedHashMap<String, String> tagMap = new LinkedHashMap<>();
        for (int i = 0; i < tags.length; i += 2) {
            tagMap.put(tags[i], tags[i + 1]);
        }
        var metric = metrics.metric(metrics.metricName(name, "plugins", "", tagMap));
        return metric == null ? null : metric.metricValue();
    }
}
