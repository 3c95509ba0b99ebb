package dev.flinks3.bench.checkpoint.job.source;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Serializes the enumerator's not-yet-assigned splits: a count, then each split. Version 1. */
public final class PendingSplitsSerializer implements SimpleVersionedSerializer<Collection<SequenceSplit>> {

    @Override
    public int getVersion() {
        return SequenceSplitSerializer.VERSION;
    }

    @Override
    public byte[] serialize(Collection<SequenceSplit> splits) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(4 + 24 * splits.size());
        out.writeInt(splits.size());
        for (SequenceSplit split : splits) {
            SequenceSplitSerializer.write(split, out);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public Collection<SequenceSplit> deserialize(int version, byte[] serialized) throws IOException {
        SequenceSplitSerializer.checkVersion(version);
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int count = in.readInt();
        List<SequenceSplit> splits = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            splits.add(SequenceSplitSerializer.read(in));
        }
        return splits;
    }
}
