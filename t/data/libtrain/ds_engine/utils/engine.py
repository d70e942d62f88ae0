"""The engine made where DeepSpeedExamples make it: a helper of the repository."""
import deepspeed


def setup_engine(args, model):
    deepspeed.init_distributed()
    engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model,
                                                   model_parameters=model.parameters())
    return engine
