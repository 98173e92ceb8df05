/* Checks on a model's protobuf bytes before protobuf-c unpacks them. Unpacking
 * recurses once per nested message, so a model of a few hundred kilobytes nesting
 * graphs in attributes ten thousand deep overflowed the stack; and it allocates a
 * struct per message, so two bytes a node make a hundred bytes of memory. This walks
 * the wire format with an explicit stack, using the generated descriptors to tell
 * messages from other length-delimited fields, counting the nesting depth (stopping
 * past ONNX_MAX_MESSAGE_DEPTH), the nodes and the tensors. Malformed bytes are left
 * to the unpacker to refuse. */
#include "import/onnx-internal.h"

typedef struct {
  const ProtobufCMessageDescriptor *desc;
  size_t end;
} Frame;

/* A varint at *pos (< end); false when truncated or longer than 10 bytes. */
static bool read_varint(const uint8_t *b, size_t end, size_t *pos, uint64_t *out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 70 && *pos < end; shift += 7) {
    uint8_t byte = b[(*pos)++];
    v |= (uint64_t)(byte & 0x7f) << (shift < 64 ? shift : 63);
    if (!(byte & 0x80)) {
      *out = v;
      return true;
    }
  }
  return false;
}

static void count(OnnxWireStats *st, const ProtobufCMessageDescriptor *desc) {
  if (desc == &onnx__node_proto__descriptor)
    st->nodes++;
  else if (desc == &onnx__tensor_proto__descriptor)
    st->tensors++;
}

void onnx_wire_scan(const void *bytes, size_t len, OnnxWireStats *st) {
  const uint8_t *b = bytes;
  Frame stack[ONNX_MAX_MESSAGE_DEPTH];
  int depth = 0;
  *st = (OnnxWireStats){.depth = 1};
  stack[0] = (Frame){&onnx__model_proto__descriptor, len};
  size_t pos = 0;
  for (;;) {
    while (pos >= stack[depth].end) {
      if (depth == 0)
        return;
      --depth;
    }
    uint64_t tag, length;
    if (!read_varint(b, stack[depth].end, &pos, &tag))
      return; /* malformed: the unpacker says so */
    switch (tag & 7) {
    case 0:
      if (!read_varint(b, stack[depth].end, &pos, &length))
        return;
      break;
    case 1:
      pos += 8;
      break;
    case 5:
      pos += 4;
      break;
    case 2: {
      if (!read_varint(b, stack[depth].end, &pos, &length) || length > stack[depth].end - pos)
        return;
      const ProtobufCFieldDescriptor *f =
          tag >> 3 <= UINT32_MAX ? protobuf_c_message_descriptor_get_field(stack[depth].desc, (unsigned)(tag >> 3)) : NULL;
      if (f && f->type == PROTOBUF_C_TYPE_MESSAGE) {
        if (depth + 2 > ONNX_MAX_MESSAGE_DEPTH) {
          st->depth = ONNX_MAX_MESSAGE_DEPTH + 1;
          return;
        }
        stack[++depth] = (Frame){f->descriptor, pos + (size_t)length};
        st->depth = depth + 1 > st->depth ? depth + 1 : st->depth;
        count(st, f->descriptor);
      } else {
        pos += (size_t)length;
      }
      break;
    }
    default: /* groups (unused by ONNX) and invalid wire types */
      return;
    }
  }
}
