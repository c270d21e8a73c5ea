/* A small multilayer perceptron for binary classification, in binary32: 2 inputs → H1 → H2 → 1
 * logit, the same activation after both hidden layers, binary cross-entropy on the logit, and
 * Adam. The activation is a registered implementation: its forward kernel runs in the forward
 * pass and its derivative kernel in the backward pass, on whole batches (arrays), so every
 * implementation trains through its own code.
 *
 * Parameters live in one array so that Adam and finite differences see a flat vector:
 *   W1[2][H1], b1[H1], W2[H1][H2], b2[H2], W3[H2], b3
 * with each weight matrix stored input-major (W[k][j] connects input k to unit j).
 * Everything is deterministic: no threads, fixed loop orders. */
#ifndef GELUCHECK_MLP_H
#define GELUCHECK_MLP_H

#include <gsl/gsl_rng.h>
#include <stdbool.h>
#include <stddef.h>

#include "gelu_impl.h"

enum { MLP_INPUTS = 2 };

typedef struct {
    size_t h1, h2;     /* hidden widths */
    size_t n_params;   /* length of params */
    float *params;
} mlp;

/* Per-batch buffers for at most max_batch rows. */
typedef struct {
    size_t max_batch;
    float *z1, *a1, *z2, *a2; /* pre-activations and activations, batch × width */
    float *d1, *d2;           /* loss gradients with respect to z1, z2 */
    float *logit;             /* batch */
    float *w2t, *acc;         /* backprop_hidden's: W2 transposed (h2 × h1), a row's sums (h1) */
} mlp_workspace;

/* Adam (Kingma & Ba 2015) with bias correction. */
typedef struct {
    double lr, beta1, beta2, eps;
    size_t n;
    long step;
    float *m, *v;
} adam;

bool mlp_alloc(mlp *net, size_t h1, size_t h2);
void mlp_free(mlp *net);
/* Weights and biases uniform in ±1/√fan_in, drawn from `rng` in parameter order (the default
 * initialisation of common frameworks' dense layers). */
void mlp_init_params(mlp *net, gsl_rng *rng);

bool mlp_workspace_alloc(mlp_workspace *ws, const mlp *net, size_t max_batch);
void mlp_workspace_free(mlp_workspace *ws);

/* Logits of n ≤ ws->max_batch rows of x (n × 2) into ws->logit. */
void mlp_forward(const mlp *net, const gelu_impl *act, const float *x, size_t n,
                 mlp_workspace *ws);

/* Binary cross-entropy of one logit against a label 0 or 1, computed without overflow:
 * max(l, 0) − l·y + log(1 + e^−|l|). */
double bce_with_logit(double logit, double label);

/* Mean binary cross-entropy over n ≤ ws->max_batch rows; its gradient with respect to every
 * parameter into grad (net->n_params floats, overwritten). */
double mlp_loss_grad(const mlp *net, const gelu_impl *act, const float *x, const float *label,
                     size_t n, mlp_workspace *ws, float *grad);

bool adam_alloc(adam *opt, size_t n, double lr);
void adam_free(adam *opt);
/* Back to step 0 with zero moments. */
void adam_reset(adam *opt);
/* One update of params from grad, β1 = 0.9, β2 = 0.999, ε = 1e-8 unless changed after alloc. */
void adam_step(adam *opt, float *params, const float *grad);

#endif
