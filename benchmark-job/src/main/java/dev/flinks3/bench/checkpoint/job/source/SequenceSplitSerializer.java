package dev.flinks3.bench.checkpoint.job.source;

import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/** Serializes a {@link SequenceSplit} as four numbers. Version 1. */
public final class SequenceSplitSerializer implements SimpleVersionedSerializer<SequenceSplit> {

    static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(SequenceSplit split) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(24);
        write(split, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public SequenceSplit deserialize(int version, byte[] serialized) throws IOException {
        checkVersion(version);
        return read(new DataInputDeserializer(serialized));
    }

    static void write(SequenceSplit split, DataOutputView out) throws IOException {
        out.writeInt(split.splitIndex());
        out.writeInt(split.stride());
        out.writeLong(split.next());
        out.writeLong(split.end());
    }

    static SequenceSplit read(DataInputView in) throws IOException {
        return new SequenceSplit(in.readInt(), in.readInt(), in.readLong(), in.readLong());
    }

    static void checkVersion(int version) throws IOException {
        if (version != VERSION) {
            throw new IOException("Unknown sequence split serializer version " + version + ", expected " + VERSION);
        }
    }
}
