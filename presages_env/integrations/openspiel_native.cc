// The games as compiled pyspiel games: the hot path (chance, legal actions, apply, returns,
// clone) calls the numba kernels through their C entry points (numba cfuncs) without going
// back into Python; what a seat sees (strings, tensors, action labels) is asked of Python,
// which replays the game on the same kernels (openspiel_native.py). Built and loaded by
// openspiel_native.py against the headers of the pyspiel it runs in.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#if defined(__GLIBCXX__)
#include <cxxabi.h>
using ForcedUnwind = abi::__forced_unwind;  // what pthread_exit unwinds a thread with
#else
struct ForcedUnwind {};  // other C++ runtimes end a thread without C++ handlers
#endif

#include "open_spiel/spiel.h"

namespace presages_native {
namespace {

using open_spiel::Action;
using open_spiel::ActionsAndProbs;
using open_spiel::Game;
using open_spiel::GameParameter;
using open_spiel::GameParameters;
using open_spiel::GameType;
using open_spiel::Player;
using open_spiel::State;

using ResetKernel = void (*)(void* state, int64_t size, int64_t seed);
using StepKernel = void (*)(void* state, int64_t size, int64_t action, float* rewards,
                            int64_t players);
using MaskKernel = void (*)(void* state, int64_t size, int8_t* mask, int64_t actions);

constexpr int kByteOutcomes = 256;

// ---- Python: errors and calls, always under the GIL --------------------------------------
// Once the interpreter finalises (its main thread is done while daemon threads still play),
// Python ends any other thread that takes the GIL with pthread_exit: a forced unwind
// through our frames and pyspiel's, whose destructors then release a GIL the thread no
// longer holds ("Fatal Python error: PyGILState_Release") or reach a noexcept frame
// (std::terminate), and the process aborts. So such a thread never touches Python again:
// it parks for good, as CPython 3.14 itself makes it (gh-87135), and the process exits
// around it. It parks before taking the GIL if it sees the interpreter finalising, and from
// the forced unwind if Python ends it inside a call: the unwind is caught and, since it may
// not be swallowed, never left. The finalising thread holds the GIL, so it never parks.
[[noreturn]] void ParkForever() {
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

bool Finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing();
#else
  return _Py_IsFinalizing();
#endif
}

PyGILState_STATE EnsureGilOrPark() {
  if (!PyGILState_Check() && (Finalizing() || !Py_IsInitialized())) ParkForever();
  try {
    return PyGILState_Ensure();
  } catch (const ForcedUnwind&) {
    ParkForever();
  }
}

class Gil {
 public:
  Gil() : state_(EnsureGilOrPark()) {}
  ~Gil() { PyGILState_Release(state_); }

 private:
  PyGILState_STATE state_;
};

// ``call()`` under the GIL: every entry into Python goes through here. The Gil lives outside
// the try, so a thread Python ends inside ``call`` parks without releasing it.
template <typename Call>
auto WithPython(const Call& call) -> decltype(call()) {
  Gil gil;
  try {
    return call();
  } catch (const ForcedUnwind&) {
    ParkForever();
  }
}

// The pending Python error as a C++ exception that pybind11 turns back into the same kind
// (ValueError from std::invalid_argument, RuntimeError otherwise).
[[noreturn]] void ThrowPythonError() {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  std::string message = "error in Python";
  if (value != nullptr) {
    PyObject* text = PyObject_Str(value);
    if (text != nullptr) {
      const char* utf8 = PyUnicode_AsUTF8(text);
      if (utf8 != nullptr) message = utf8;
      Py_DECREF(text);
    }
  }
  bool value_error = type != nullptr && PyErr_GivenExceptionMatches(type, PyExc_ValueError);
  if (!value_error && type != nullptr) {  // keep the kind (KeyboardInterrupt, TypeError...)
    message = std::string(reinterpret_cast<PyTypeObject*>(type)->tp_name) + ": " + message;
  }
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
  PyErr_Clear();
  if (value_error) throw std::invalid_argument(message);
  throw std::runtime_error(message);
}

PyObject* Checked(PyObject* result) {
  if (result == nullptr) ThrowPythonError();
  return result;
}

PyObject* ToPython(const GameParameters& params) {
  PyObject* dict = Checked(PyDict_New());
  for (const auto& [name, parameter] : params) {
    PyObject* value = nullptr;
    switch (parameter.type()) {
      case GameParameter::Type::kBool:
        value = PyBool_FromLong(parameter.bool_value());
        break;
      case GameParameter::Type::kInt:
        value = PyLong_FromLong(parameter.int_value());
        break;
      case GameParameter::Type::kDouble:
        value = PyFloat_FromDouble(parameter.double_value());
        break;
      case GameParameter::Type::kString:
        value = PyUnicode_FromString(parameter.string_value().c_str());
        break;
      default:
        Py_DECREF(dict);
        throw std::invalid_argument("parameter " + name + " must be a bool, int, float or str");
    }
    if (value == nullptr || PyDict_SetItemString(dict, name.c_str(), value) != 0) {
      Py_XDECREF(value);
      Py_DECREF(dict);
      ThrowPythonError();
    }
    Py_DECREF(value);
  }
  return dict;
}

GameParameters FromPython(PyObject* dict) {
  GameParameters params;
  PyObject *key, *value;
  Py_ssize_t position = 0;
  while (PyDict_Next(dict, &position, &key, &value)) {
    const char* name = PyUnicode_AsUTF8(key);
    if (name == nullptr) ThrowPythonError();
    if (PyBool_Check(value)) {
      params[name] = GameParameter(value == Py_True);
    } else if (PyLong_Check(value)) {
      long number = PyLong_AsLong(value);
      if (number == -1 && PyErr_Occurred()) ThrowPythonError();
      if (number < INT32_MIN || number > INT32_MAX) {
        throw std::invalid_argument(std::string("parameter ") + name + " is out of range");
      }
      params[name] = GameParameter(static_cast<int>(number));
    } else if (PyFloat_Check(value)) {
      params[name] = GameParameter(PyFloat_AsDouble(value));
    } else if (PyUnicode_Check(value)) {
      const char* text = PyUnicode_AsUTF8(value);
      if (text == nullptr) ThrowPythonError();
      params[name] = GameParameter(std::string(text));
    } else {
      throw std::invalid_argument(std::string("parameter ") + name + " has an unknown type");
    }
  }
  return params;
}

PyObject* ActionList(const std::vector<Action>& actions) {
  PyObject* list = Checked(PyList_New(static_cast<Py_ssize_t>(actions.size())));
  for (size_t i = 0; i < actions.size(); ++i) {
    PyObject* item = PyLong_FromLongLong(actions[i]);
    if (item == nullptr) {
      Py_DECREF(list);
      ThrowPythonError();
    }
    PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), item);
  }
  return list;
}

std::string TakeString(PyObject* result) {
  const char* utf8 = PyUnicode_AsUTF8(result);
  if (utf8 == nullptr) {
    Py_DECREF(result);
    ThrowPythonError();
  }
  std::string text(utf8);
  Py_DECREF(result);
  return text;
}

// ---- the game ----------------------------------------------------------------------------
// What Python's setup returns for one set of parameters.
struct Setup {
  int num_players = 0;
  int num_actions = 0;
  int seed_bytes = 0;
  int max_game_length = 0;
  double min_utility = 0;
  double max_utility = 0;
  bool zero_sum = false;
  std::vector<char> blank;  // the state array, options written, ready for reset
  int itemsize = 0;
  Py_ssize_t current_slot = 0;
  Py_ssize_t terminal_slot = 0;
  ResetKernel reset = nullptr;
  StepKernel step = nullptr;
  MaskKernel mask = nullptr;
  int information_state_size = 0;
  int observation_size = 0;
  PyObject* views = nullptr;  // answers what a seat sees (a new reference, held)
};

class KernelGame : public Game {
 public:
  KernelGame(GameType type, GameParameters params, Setup setup)
      : Game(std::move(type), std::move(params)), setup_(std::move(setup)) {}

  ~KernelGame() override {
    // after the interpreter has finalised (a registry destroyed by exit()), leak instead
    if (setup_.views != nullptr && Py_IsInitialized()) {
      WithPython([this] { Py_DECREF(setup_.views); });
    }
  }

  const Setup& setup() const { return setup_; }
  int NumDistinctActions() const override { return setup_.num_actions; }
  std::unique_ptr<State> NewInitialState() const override;
  int MaxChanceOutcomes() const override { return kByteOutcomes; }
  int NumPlayers() const override { return setup_.num_players; }
  double MinUtility() const override { return setup_.min_utility; }
  double MaxUtility() const override { return setup_.max_utility; }
  absl::optional<double> UtilitySum() const override {
    if (setup_.zero_sum) return 0.0;
    return absl::nullopt;
  }
  int MaxGameLength() const override { return setup_.max_game_length; }
  int MaxChanceNodesInHistory() const override { return setup_.seed_bytes; }
  std::vector<int> InformationStateTensorShape() const override {
    return {setup_.information_state_size};
  }
  std::vector<int> ObservationTensorShape() const override { return {setup_.observation_size}; }

 private:
  Setup setup_;
};

class KernelState : public State {
 public:
  explicit KernelState(std::shared_ptr<const Game> game)
      : State(game),
        setup_(&static_cast<const KernelGame&>(*game).setup()),
        mask_(setup_->num_actions, 0),
        rewards_(setup_->num_players, 0.0f),
        returns_(setup_->num_players, 0.0) {}
  KernelState(const KernelState&) = default;

  Player CurrentPlayer() const override {
    if (board_.empty()) return open_spiel::kChancePlayerId;
    if (Slot(setup_->terminal_slot) != 0) return open_spiel::kTerminalPlayerId;
    return static_cast<Player>(Slot(setup_->current_slot));
  }

  bool IsTerminal() const override {
    return !board_.empty() && Slot(setup_->terminal_slot) != 0;
  }

  std::vector<Action> LegalActions() const override {
    if (board_.empty()) return LegalChanceOutcomes();
    if (IsTerminal()) return {};
    const std::vector<int8_t>& mask = Mask();
    std::vector<Action> legal;
    for (int action = 0; action < setup_->num_actions; ++action) {
      if (mask[action]) legal.push_back(action);
    }
    return legal;
  }

  ActionsAndProbs ChanceOutcomes() const override {
    ActionsAndProbs outcomes;
    outcomes.reserve(kByteOutcomes);
    for (int byte = 0; byte < kByteOutcomes; ++byte) {
      outcomes.emplace_back(byte, 1.0 / kByteOutcomes);
    }
    return outcomes;
  }

  std::vector<Action> LegalChanceOutcomes() const override {
    std::vector<Action> bytes(kByteOutcomes);
    for (int byte = 0; byte < kByteOutcomes; ++byte) bytes[byte] = byte;
    return bytes;
  }

  std::vector<double> Rewards() const override {
    return std::vector<double>(rewards_.begin(), rewards_.end());
  }
  std::vector<double> Returns() const override { return returns_; }

  std::unique_ptr<State> Clone() const override { return std::make_unique<KernelState>(*this); }

  std::string ToString() const override {
    std::string text = game_->GetType().short_name;
    if (board_.empty()) {
      text += ": seed bytes [";
      for (size_t i = 0; i < seed_bytes_.size(); ++i) {
        text += (i ? ", " : "") + std::to_string(seed_bytes_[i]);
      }
      return text + "]";
    }
    text += ": seed " + std::to_string(Seed()) + ", actions [";
    for (size_t i = 0; i < actions_.size(); ++i) {
      text += (i ? ", " : "") + std::to_string(actions_[i]);
    }
    return text + "]";
  }

  std::string ActionToString(Player player, Action action) const override {
    if (player == open_spiel::kChancePlayerId) {
      return "seed byte " + std::to_string(seed_bytes_.size()) + " = " + std::to_string(action);
    }
    return WithPython([&] {
      PyObject* history = ActionList(History());
      PyObject* result =
          PyObject_CallMethod(setup_->views, "action_string", "Oll", history,
                              static_cast<long>(player), static_cast<long>(action));
      Py_DECREF(history);
      return TakeString(Checked(result));
    });
  }

  std::string InformationStateString(Player player) const override {
    return ViewString("information_state_string", player);
  }
  std::string ObservationString(Player player) const override {
    return ViewString("observation_string", player);
  }
  void InformationStateTensor(Player player, absl::Span<float> values) const override {
    ViewTensor("information_state_tensor", player, values);
  }
  void ObservationTensor(Player player, absl::Span<float> values) const override {
    ViewTensor("observation_tensor", player, values);
  }

 protected:
  void DoApplyAction(Action action) override {
    if (board_.empty()) {
      if (action < 0 || action >= kByteOutcomes) {
        throw std::invalid_argument("chance outcome must be a byte (0 to 255), got " +
                                    std::to_string(action));
      }
      seed_bytes_.push_back(static_cast<uint8_t>(action));
      if (static_cast<int>(seed_bytes_.size()) == setup_->seed_bytes) {
        board_ = setup_->blank;
        setup_->reset(board_.data(), Size(), static_cast<int64_t>(Seed()));
      }
      return;
    }
    if (IsTerminal()) throw std::invalid_argument("the game is over; no action can be applied");
    if (action < 0 || action >= setup_->num_actions || !Mask()[action]) {
      throw std::invalid_argument("action " + std::to_string(action) +
                                  " is not legal for player " +
                                  std::to_string(CurrentPlayer()) + " here");
    }
    setup_->step(board_.data(), Size(), action, rewards_.data(), setup_->num_players);
    mask_fresh_ = false;
    actions_.push_back(action);
    for (int seat = 0; seat < setup_->num_players; ++seat) returns_[seat] += rewards_[seat];
  }

 private:
  int64_t Size() const { return static_cast<int64_t>(board_.size()) / setup_->itemsize; }

  int64_t Slot(Py_ssize_t index) const {
    const char* data = board_.data();
    switch (setup_->itemsize) {
      case 1:
        return reinterpret_cast<const int8_t*>(data)[index];
      case 2:
        return reinterpret_cast<const int16_t*>(data)[index];
      case 4:
        return reinterpret_cast<const int32_t*>(data)[index];
      default:
        return reinterpret_cast<const int64_t*>(data)[index];
    }
  }

  uint64_t Seed() const {
    uint64_t seed = 0;
    for (size_t i = 0; i < seed_bytes_.size(); ++i) {
      seed |= static_cast<uint64_t>(seed_bytes_[i]) << (8 * i);
    }
    return seed;
  }

  const std::vector<int8_t>& Mask() const {
    if (!mask_fresh_) {
      setup_->mask(const_cast<char*>(board_.data()), Size(), mask_.data(), setup_->num_actions);
      mask_fresh_ = true;
    }
    return mask_;
  }

  void CheckSeat(Player player) const {
    if (player < 0 || player >= setup_->num_players) {
      throw std::invalid_argument("player must be a seat from 0 to " +
                                  std::to_string(setup_->num_players - 1) + ", got " +
                                  std::to_string(player));
    }
  }

  PyObject* View(const char* kind, Player player) const {
    CheckSeat(player);
    PyObject* history = ActionList(History());
    PyObject* result =
        PyObject_CallMethod(setup_->views, kind, "Ol", history, static_cast<long>(player));
    Py_DECREF(history);
    return Checked(result);
  }

  std::string ViewString(const char* kind, Player player) const {
    return WithPython([&] { return TakeString(View(kind, player)); });
  }

  void ViewTensor(const char* kind, Player player, absl::Span<float> values) const {
    WithPython([&] {
      PyObject* result = View(kind, player);
      Py_buffer buffer;
      if (PyObject_GetBuffer(result, &buffer, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) != 0) {
        Py_DECREF(result);
        ThrowPythonError();
      }
      bool fits = buffer.itemsize == sizeof(float) && buffer.format != nullptr &&
                  std::string(buffer.format) == "f" &&
                  buffer.len == static_cast<Py_ssize_t>(values.size() * sizeof(float));
      if (fits) std::memcpy(values.data(), buffer.buf, buffer.len);
      PyBuffer_Release(&buffer);
      Py_DECREF(result);
      if (!fits) throw std::runtime_error(std::string(kind) + ": the view has the wrong size");
    });
  }

  const Setup* setup_;
  std::vector<uint8_t> seed_bytes_;
  std::vector<char> board_;  // the kernel's state array; empty until the deal
  std::vector<Action> actions_;
  mutable std::vector<int8_t> mask_;
  mutable bool mask_fresh_ = false;
  std::vector<float> rewards_;
  std::vector<double> returns_;
};

std::unique_ptr<State> KernelGame::NewInitialState() const {
  return std::make_unique<KernelState>(shared_from_this());
}

// The game Python's ``setup(short_name, params)`` describes (called under the GIL).
std::shared_ptr<const Game> DescribedGame(GameType type, PyObject* make_setup,
                                          const GameParameters& params) {
  PyObject* result = Checked(PyObject_CallFunction(make_setup, "sN", type.short_name.c_str(),
                                                   ToPython(params)));
  Setup setup;
  PyObject *full_params, *views;
  const char* blank;
  Py_ssize_t blank_size;
  unsigned long long reset, step, mask;
  int zero_sum;
  int parsed = PyArg_ParseTuple(
      result, "O!iiiiddpy#innKKKiiO:setup", &PyDict_Type, &full_params, &setup.num_players,
      &setup.num_actions, &setup.seed_bytes, &setup.max_game_length, &setup.min_utility,
      &setup.max_utility, &zero_sum, &blank, &blank_size, &setup.itemsize,
      &setup.current_slot, &setup.terminal_slot, &reset, &step, &mask,
      &setup.information_state_size, &setup.observation_size, &views);
  if (!parsed) {
    Py_DECREF(result);
    ThrowPythonError();
  }
  // what the state reads without further checks: slots inside the array, seed bits in 64
  bool itemsize_ok = setup.itemsize == 1 || setup.itemsize == 2 || setup.itemsize == 4 ||
                     setup.itemsize == 8;
  Py_ssize_t slots = itemsize_ok ? blank_size / setup.itemsize : 0;
  bool consistent = itemsize_ok && blank_size % setup.itemsize == 0 &&
                    setup.num_players > 0 && setup.num_actions > 0 && setup.seed_bytes >= 1 &&
                    setup.seed_bytes <= 7 && setup.current_slot >= 0 &&
                    setup.current_slot < slots && setup.terminal_slot >= 0 &&
                    setup.terminal_slot < slots && setup.information_state_size >= 0 &&
                    setup.observation_size >= 0 && reset != 0 && step != 0 && mask != 0;
  if (!consistent) {
    Py_DECREF(result);
    throw std::invalid_argument("setup: an inconsistent game description");
  }
  setup.zero_sum = zero_sum != 0;
  setup.blank.assign(blank, blank + blank_size);
  setup.reset = reinterpret_cast<ResetKernel>(reset);
  setup.step = reinterpret_cast<StepKernel>(step);
  setup.mask = reinterpret_cast<MaskKernel>(mask);
  Py_INCREF(views);
  setup.views = views;
  GameParameters game_params;
  try {
    game_params = FromPython(full_params);
  } catch (...) {
    Py_DECREF(result);
    Py_DECREF(views);
    throw;
  }
  Py_DECREF(result);
  type.utility = setup.zero_sum ? GameType::Utility::kZeroSum : GameType::Utility::kGeneralSum;
  return std::make_shared<KernelGame>(std::move(type), std::move(game_params), std::move(setup));
}

std::shared_ptr<const Game> MakeGame(const GameType& type, PyObject* make_setup,
                                     const GameParameters& params) {
  return WithPython([&] { return DescribedGame(type, make_setup, params); });
}

}  // namespace
}  // namespace presages_native

// Registers ``short_name`` with pyspiel's registry. ``spec`` maps each parameter to its
// default; ``make_setup(short_name, params)`` describes a game (held for the process).
// Returns 0, or -1 with a Python error set.
extern "C" int presages_register(const char* short_name, const char* long_name,
                                 int min_players, int max_players, PyObject* spec,
                                 PyObject* make_setup) {
  using namespace presages_native;
  try {
    GameType type{
        short_name,
        long_name,
        GameType::Dynamics::kSequential,
        GameType::ChanceMode::kExplicitStochastic,
        GameType::Information::kImperfectInformation,
        GameType::Utility::kGeneralSum,
        GameType::RewardModel::kRewards,
        max_players,
        min_players,
        /*provides_information_state_string=*/true,
        /*provides_information_state_tensor=*/true,
        /*provides_observation_string=*/true,
        /*provides_observation_tensor=*/true,
        FromPython(spec),
    };
    Py_INCREF(make_setup);  // never released: pyspiel's registry lives until exit()
    open_spiel::GameRegisterer::RegisterGame(
        type, [type, make_setup](const GameParameters& params) {
          return MakeGame(type, make_setup, params);
        });
  } catch (const std::exception& error) {
    PyErr_SetString(PyExc_ValueError, error.what());
    return -1;
  }
  return 0;
}
