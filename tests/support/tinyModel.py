"""Writes a tiny random-weight BERT-shaped ONNX model for wiring tests (no real weights exist offline).

usage: python3 tinyModel.py OUT.onnx KIND VOCAB_SIZE HIDDEN [LABELS]
KIND feature: input_ids, attention_mask, token_type_ids -> last_hidden_state [batch, seq, hidden]
KIND classifier: same inputs -> logits [batch, LABELS] (masked sum of the token vectors, then a dense layer)
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out, kind, vocab, hidden = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
labels = int(sys.argv[5]) if len(sys.argv) > 5 else 3
rng = np.random.default_rng(7)
inputs = [helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "sequence"]) for name in ("input_ids", "attention_mask", "token_type_ids")]
initializers = [
    numpy_helper.from_array(rng.normal(size=(vocab, hidden)).astype(np.float32), "word_embeddings"),
    numpy_helper.from_array(rng.normal(size=(2, hidden)).astype(np.float32), "type_embeddings"),
    numpy_helper.from_array(np.array([2], dtype=np.int64), "last_axis"),
    numpy_helper.from_array(np.array([1], dtype=np.int64), "sequence_axis"),
]
nodes = [
    helper.make_node("Gather", ["word_embeddings", "input_ids"], ["words"]),
    helper.make_node("Gather", ["type_embeddings", "token_type_ids"], ["types"]),
    helper.make_node("Add", ["words", "types"], ["summed"]),
    helper.make_node("Cast", ["attention_mask"], ["mask_float"], to=TensorProto.FLOAT),
    helper.make_node("Unsqueeze", ["mask_float", "last_axis"], ["mask"]),
    helper.make_node("Mul", ["summed", "mask"], ["hidden_states"]),
]
if kind == "feature":
    nodes.append(helper.make_node("Identity", ["hidden_states"], ["last_hidden_state"]))
    outputs = [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", hidden])]
else:
    initializers.append(numpy_helper.from_array((0.01 * rng.normal(size=(hidden, labels))).astype(np.float32), "classifier"))
    nodes += [
        helper.make_node("ReduceSum", ["hidden_states", "sequence_axis"], ["pooled"], keepdims=0),
        helper.make_node("MatMul", ["pooled", "classifier"], ["logits"]),
    ]
    outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", labels])]
graph = helper.make_graph(nodes, "tiny", inputs, outputs, initializers)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, out)
