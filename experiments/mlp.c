/* The MLP's forward and backward passes and Adam (see mlp.h for the layout). Dense layers loop
 * with the output index innermost (a[k]·W[k][:] added to a row; the backward pass's W2ᵀ product
 * through a transposed copy), so no sum is reordered and the compiler vectorises without
 * changing a bit, in the x86-64-v4, v3 and portable builds of hot_clones.h (tests/clones.sh
 * compares them). Vectorizing the layers halves
 * make_moons' time (docs/moons.md has the figures); the CSVs stay the same bytes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hot_clones.h"
#include "mlp.h"

/* Views of the flat parameter (or gradient) vector. */
typedef struct {
    float *w1, *b1, *w2, *b2, *w3, *b3;
} mlp_layers;

static mlp_layers layers_of(const mlp *net, float *p)
{
    mlp_layers l;
    l.w1 = p;
    l.b1 = l.w1 + MLP_INPUTS * net->h1;
    l.w2 = l.b1 + net->h1;
    l.b2 = l.w2 + net->h1 * net->h2;
    l.w3 = l.b2 + net->h2;
    l.b3 = l.w3 + net->h2;
    return l;
}

bool mlp_alloc(mlp *net, size_t h1, size_t h2)
{
    net->h1 = h1;
    net->h2 = h2;
    net->n_params = MLP_INPUTS * h1 + h1 + h1 * h2 + h2 + h2 + 1;
    net->params = calloc(net->n_params, sizeof *net->params);
    return net->params != NULL;
}

void mlp_free(mlp *net)
{
    free(net->params);
    net->params = NULL;
}

static void fill_uniform(gsl_rng *rng, float *p, size_t n, double bound)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (float)(bound * (2.0 * gsl_rng_uniform(rng) - 1.0));
}

void mlp_init_params(mlp *net, gsl_rng *rng)
{
    mlp_layers l = layers_of(net, net->params);
    double in1 = 1.0 / sqrt(MLP_INPUTS), in2 = 1.0 / sqrt((double)net->h1),
           in3 = 1.0 / sqrt((double)net->h2);
    fill_uniform(rng, l.w1, MLP_INPUTS * net->h1, in1);
    fill_uniform(rng, l.b1, net->h1, in1);
    fill_uniform(rng, l.w2, net->h1 * net->h2, in2);
    fill_uniform(rng, l.b2, net->h2, in2);
    fill_uniform(rng, l.w3, net->h2, in3);
    fill_uniform(rng, l.b3, 1, in3);
}

bool mlp_workspace_alloc(mlp_workspace *ws, const mlp *net, size_t max_batch)
{
    size_t h1 = max_batch * net->h1, h2 = max_batch * net->h2;
    /* One block: z1, a1, d1 (h1 each), z2, a2, d2 (h2 each), logit (max_batch), w2t, acc. */
    float *block =
        malloc((3 * h1 + 3 * h2 + max_batch + net->h1 * net->h2 + net->h1) * sizeof *block);
    ws->max_batch = max_batch;
    ws->z1 = block;
    if (!block) return false;
    ws->a1 = ws->z1 + h1;
    ws->d1 = ws->a1 + h1;
    ws->z2 = ws->d1 + h1;
    ws->a2 = ws->z2 + h2;
    ws->d2 = ws->a2 + h2;
    ws->logit = ws->d2 + h2;
    ws->w2t = ws->logit + max_batch;
    ws->acc = ws->w2t + net->h1 * net->h2;
    return true;
}

void mlp_workspace_free(mlp_workspace *ws)
{
    free(ws->z1); /* the block */
    memset(ws, 0, sizeof *ws);
}

/* z (n × n_out) = bias + a (n × n_in) · w (n_in × n_out). */
HOT_CLONES static void dense_forward(const float *restrict a, size_t n, size_t n_in,
                                     const float *restrict w, const float *restrict bias,
                                     size_t n_out, float *restrict z)
{
    for (size_t r = 0; r < n; r++) {
        float *zr = z + r * n_out;
        const float *ar = a + r * n_in;
        memcpy(zr, bias, n_out * sizeof *zr);
        for (size_t k = 0; k < n_in; k++)
            for (size_t j = 0; j < n_out; j++)
                zr[j] += ar[k] * w[k * n_out + j];
    }
}

/* Adds the gradients of a dense layer's weights and bias, given dz (n × n_out), the loss
 * gradient with respect to its outputs, and its input a (n × n_in). */
HOT_CLONES static void dense_param_grad(const float *restrict a, size_t n, size_t n_in,
                                        const float *restrict dz, size_t n_out,
                                        float *restrict gw, float *restrict gb)
{
    for (size_t r = 0; r < n; r++) {
        const float *dr = dz + r * n_out;
        for (size_t k = 0; k < n_in; k++)
            for (size_t j = 0; j < n_out; j++)
                gw[k * n_out + j] += a[r * n_in + k] * dr[j];
        for (size_t j = 0; j < n_out; j++)
            gb[j] += dr[j];
    }
}

/* d1 (n × h1) ⊙= d2 (n × h2) · w2ᵀ (w2: h1 × h2), each sum over j in ascending order from 0.0f
 * as a dot product of row k of w2 would take it, but with the row index k innermost (through w2's
 * transpose wt, h2 × h1, formed here) so that the compiler vectorizes across k without
 * reordering any sum: the same bits as the dot products. */
HOT_CLONES static void backprop_hidden(const float *restrict d2, size_t n, size_t h2,
                                       const float *restrict w2, size_t h1, float *restrict wt,
                                       float *restrict s, float *restrict d1)
{
    for (size_t k = 0; k < h1; k++)
        for (size_t j = 0; j < h2; j++) wt[j * h1 + k] = w2[k * h2 + j];
    for (size_t r = 0; r < n; r++) {
        const float *dr = d2 + r * h2;
        float *d1r = d1 + r * h1;
        for (size_t k = 0; k < h1; k++) s[k] = 0.0f;
        for (size_t j = 0; j < h2; j++)
            for (size_t k = 0; k < h1; k++) s[k] += dr[j] * wt[j * h1 + k];
        for (size_t k = 0; k < h1; k++) d1r[k] *= s[k];
    }
}

void mlp_forward(const mlp *net, const gelu_impl *act, const float *x, size_t n,
                 mlp_workspace *ws)
{
    mlp_layers l = layers_of(net, net->params);
    dense_forward(x, n, MLP_INPUTS, l.w1, l.b1, net->h1, ws->z1);
    act->forward(ws->z1, ws->a1, n * net->h1);
    dense_forward(ws->a1, n, net->h1, l.w2, l.b2, net->h2, ws->z2);
    act->forward(ws->z2, ws->a2, n * net->h2);
    dense_forward(ws->a2, n, net->h2, l.w3, l.b3, 1, ws->logit);
}

double bce_with_logit(double logit, double label)
{
    return fmax(logit, 0.0) - logit * label + log1p(exp(-fabs(logit)));
}

double mlp_loss_grad(const mlp *net, const gelu_impl *act, const float *x, const float *label,
                     size_t n, mlp_workspace *ws, float *grad)
{
    size_t h1 = net->h1, h2 = net->h2;
    mlp_layers l = layers_of(net, net->params), g = layers_of(net, grad);
    memset(grad, 0, net->n_params * sizeof *grad);
    mlp_forward(net, act, x, n, ws);
    double loss = 0.0;
    /* d(mean loss)/d logit = (σ(logit) − y)/n, kept in ws->logit from here on. */
    for (size_t r = 0; r < n; r++) {
        double z = ws->logit[r];
        loss += bce_with_logit(z, label[r]);
        ws->logit[r] = (float)((1.0 / (1.0 + exp(-z)) - label[r]) / (double)n);
    }
    dense_param_grad(ws->a2, n, h2, ws->logit, 1, g.w3, g.b3);
    /* Through the second activation: d2 = (dlogit · w3) ⊙ act'(z2). */
    act->derivative(ws->z2, ws->d2, n * h2);
    for (size_t r = 0; r < n; r++)
        for (size_t j = 0; j < h2; j++)
            ws->d2[r * h2 + j] *= ws->logit[r] * l.w3[j];
    dense_param_grad(ws->a1, n, h1, ws->d2, h2, g.w2, g.b2);
    /* Through the first activation: d1 = (d2 · W2ᵀ) ⊙ act'(z1). */
    act->derivative(ws->z1, ws->d1, n * h1);
    backprop_hidden(ws->d2, n, h2, l.w2, h1, ws->w2t, ws->acc, ws->d1);
    dense_param_grad(x, n, MLP_INPUTS, ws->d1, h1, g.w1, g.b1);
    return loss / (double)n;
}

bool adam_alloc(adam *opt, size_t n, double lr)
{
    opt->lr = lr;
    opt->beta1 = 0.9;
    opt->beta2 = 0.999;
    opt->eps = 1e-8;
    opt->n = n;
    opt->step = 0;
    opt->m = calloc(2 * n, sizeof *opt->m); /* m, then v, in one block */
    opt->v = opt->m ? opt->m + n : NULL;
    return opt->m != NULL;
}

void adam_free(adam *opt)
{
    free(opt->m); /* the block */
    opt->m = opt->v = NULL;
}

void adam_reset(adam *opt)
{
    opt->step = 0;
    memset(opt->m, 0, opt->n * sizeof *opt->m);
    memset(opt->v, 0, opt->n * sizeof *opt->v);
}

void adam_step(adam *opt, float *params, const float *grad)
{
    opt->step++;
    /* Bias corrections c = 1 − β^t folded into the step and into ε: the update
     * lr·√c2/c1 · m/(√v + ε·√c2) equals the textbook lr · m̂/(√v̂ + ε), m̂ = m/c1, v̂ = v/c2. */
    double c1 = 1.0 - pow(opt->beta1, (double)opt->step);
    double c2 = 1.0 - pow(opt->beta2, (double)opt->step);
    float b1 = (float)opt->beta1, b2 = (float)opt->beta2;
    float step = (float)(opt->lr * sqrt(c2) / c1), eps = (float)(opt->eps * sqrt(c2));
    for (size_t i = 0; i < opt->n; i++) {
        opt->m[i] = b1 * opt->m[i] + (1.0f - b1) * grad[i];
        opt->v[i] = b2 * opt->v[i] + (1.0f - b2) * grad[i] * grad[i];
        params[i] -= step * opt->m[i] / (sqrtf(opt->v[i]) + eps);
    }
}
