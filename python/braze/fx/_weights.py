"""weights="input" for frontend="fx": parameters and buffers as graph arguments.

The module is traced as a function of (*inputs, *weights): torch's functional_call puts
the traced weight tensors in place of the module's own for the call, so make_fx sees
them as placeholders after the user's inputs instead of get_attr constants. Each
distinct tensor is one argument, named as in the state dict (its first name in
named_parameters() then named_buffers() order, as the ONNX route names them); a tensor
the module reaches under several names (tied weights) is passed under all of them, so
no name keeps the module's own tensor as a constant."""
import torch

__all__ = ["module_weights", "functional"]


def module_weights(module):
    """(names, tensors, aliases) of module's parameters and buffers: one entry per
    distinct tensor; aliases[i] lists every dotted name that reaches tensor i."""
    names, tensors, index = [], [], {}
    for name, t in list(module.named_parameters()) + list(module.named_buffers()):
        if id(t) not in index:
            index[id(t)] = len(names)
            names.append(name)
            tensors.append(t)
    aliases = [[] for _ in names]
    for prefix, sub in module.named_modules(remove_duplicate=False):
        for table in (sub._parameters, sub._buffers):
            for k, t in table.items():
                if t is not None and id(t) in index:
                    full = prefix + "." + k if prefix else k
                    if full not in aliases[index[id(t)]]:
                        aliases[index[id(t)]].append(full)
    return names, tensors, aliases


def _functional_call():
    f = getattr(getattr(torch, "func", None), "functional_call", None)
    if f is None:                      # PyTorch 1.13
        from torch.nn.utils.stateless import functional_call as f
    return f


class _Run(torch.nn.Module):
    """The module (a GraphModule through torch.fx.Interpreter, to keep its nodes' stack
    traces) as the one submodule `m`, so functional_call can rebind its tensors."""

    def __init__(self, module):
        super().__init__()
        self.m = module

    def forward(self, *args):
        if isinstance(self.m, torch.fx.GraphModule):
            return torch.fx.Interpreter(self.m).run(*args)
        return self.m(*args)


def functional(module, n_inputs, aliases):
    """A function of (*inputs, *weights) that runs module with weight i under each of
    aliases[i]."""
    call, run = _functional_call(), _Run(module)

    def fn(*args):
        xs, ws = args[:n_inputs], args[n_inputs:]
        bound = {"m." + a: w for w, names in zip(ws, aliases) for a in names}
        return call(run, bound, tuple(xs))
    return fn
